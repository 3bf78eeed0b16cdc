import type { ExecutionContext } from '@nestjs/common';
import type { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { contextOf } from '../context/context-of';
import { CredentialRegistry, type CredentialResolver } from '../context/credential-registry';
import type { Principal } from '../context/principal';
import { ProductionApi } from '../decorators/production-api.decorator';
import type { BrandDirectory } from '../context/brand-directory';
import { AuthenticationGuard } from './authentication.guard';
import { BrandContextGuard } from './brand-context.guard';
import { PermissionGuard } from './permission.guard';

@ProductionApi()
class ProductionRoutes {
  me(this: void): void {}
}

const sitePrincipal: Principal = {
  kind: 'site_key',
  id: 1,
  isSuperadmin: false,
  boundBrandId: 3,
  defaultBrandId: () => 3,
  permissionsIn: () => new Set(),
};

function chainWith(resolve: CredentialResolver['resolve']) {
  const registry = new CredentialRegistry();
  registry.register({ realm: 'production', accepts: () => true, resolve });
  const reflector = new Reflector();
  const config = { get: () => undefined } as unknown as ConfigService;
  const brands: BrandDirectory = { exists: () => Promise.resolve(true) };
  return [
    new AuthenticationGuard(reflector, registry, config as never),
    new BrandContextGuard(reflector, brands),
    new PermissionGuard(reflector, config as never),
  ];
}

function executionFor(request: object): ExecutionContext {
  return new ExecutionContextHost([request, {}, undefined], ProductionRoutes, ProductionRoutes.prototype.me);
}

const siteRequest = () => ({ headers: { authorization: 'Bearer abc' }, method: 'GET', url: '/production-api/me' });

/**
 * A guard that returns a boolean lets Nest call the next one in the same turn; a promise costs
 * every request a wait (docs/performance.md, PERF-5). Credentials that need no I/O
 * (a remembered site key, an integration key its route's statement checks) keep the chain
 * synchronous to the end.
 */
describe('the guard chain', () => {
  it('answers with booleans, not promises, when the credential is known without I/O', () => {
    const request = siteRequest();
    const results = chainWith(() => sitePrincipal).map((guard) => guard.canActivate(executionFor(request)));
    expect(results).toEqual([true, true, true]);
    expect(contextOf(request)).toMatchObject({ principal: sitePrincipal, brandId: 3 });
  });

  it('waits for a credential that needs I/O, and settles the same context', async () => {
    const request = siteRequest();
    const [authentication, ...rest] = chainWith(() => Promise.resolve(sitePrincipal));
    const pending = authentication.canActivate(executionFor(request));
    expect(pending).toBeInstanceOf(Promise);
    await expect(pending).resolves.toBe(true);
    expect(rest.map((guard) => guard.canActivate(executionFor(request)))).toEqual([true, true]);
    expect(contextOf(request)).toMatchObject({ principal: sitePrincipal, brandId: 3 });
  });

  it('lets a refusal of the credential through as thrown, for Nest to turn into the answer', () => {
    const request = siteRequest();
    const [authentication] = chainWith(() => {
      throw new Error('unknown key');
    });
    expect(() => authentication.canActivate(executionFor(request))).toThrow('unknown key');
  });
});
