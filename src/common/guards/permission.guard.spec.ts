import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { contextOf } from '../context/context-of';
import type { BrandPermission } from '../context/permissions';
import type { Principal } from '../context/principal';
import { ConfigService } from '@nestjs/config';
import type { Environment } from '../../config/environment';
import {
  AccountRoutes,
  PermissionsCheckedByService,
  RequirePermission,
  RequireRecentAuthentication,
  RequireSession,
} from '../decorators/require-permission.decorator';
import { AppError } from '../errors/app-error';
import { PermissionGuard } from './permission.guard';

class Routes {
  @PermissionsCheckedByService('orders.read', 'returns.read')
  read(this: void): void {}

  @RequirePermission('settings.manage')
  @RequireRecentAuthentication()
  issueKey(this: void): void {}
}

@AccountRoutes()
class OwnAccount {
  @RequireSession()
  me(this: void): void {}
}

const RECENT_SECONDS = 600;
const config = { get: () => RECENT_SECONDS } as unknown as ConfigService<Environment, true>;

const keyHolding = (...permissions: BrandPermission[]): Principal => ({
  kind: 'integration_key',
  id: 1,
  isSuperadmin: false,
  boundBrandId: 3,
  defaultBrandId: () => 3,
  permissionsIn: (brandId) => new Set(brandId === 3 ? permissions : []),
});

const personProvedAt = (secondsAgo: number, ...permissions: BrandPermission[]): Principal => ({
  kind: 'user',
  id: 2,
  isSuperadmin: false,
  boundBrandId: null,
  defaultBrandId: () => 3,
  permissionsIn: (brandId) => new Set(brandId === 3 ? permissions : []),
  authenticatedAt: new Date(Date.now() - secondsAgo * 1000),
});

function outcome(
  principal: Principal,
  brandId: number | null,
  route: 'read' | 'issueKey' | 'me' = 'read',
): boolean | string {
  const request = { headers: {}, method: 'GET', url: '/events' };
  Object.assign(contextOf(request as never), { principal, brandId });
  const [cls, handler] = route === 'me' ? [OwnAccount, OwnAccount.prototype.me] : [Routes, Routes.prototype[route]];
  try {
    return new PermissionGuard(new Reflector(), config).canActivate(
      new ExecutionContextHost([request, {}, undefined], cls, handler),
    );
  } catch (error) {
    return error instanceof AppError ? `${error.status} ${error.message}` : 'thrown';
  }
}

describe('PermissionsCheckedByService', () => {
  it('lets in a caller in a brand, whatever it holds there: the route names what a request lacks', () => {
    expect(outcome(keyHolding('orders.read'), 3)).toBe(true);
    expect(outcome(keyHolding('returns.read', 'orders.write'), 3)).toBe(true);
    expect(outcome(keyHolding('orders.write'), 3)).toBe(true);
  });

  it('refuses one acting in no brand, naming the first', () => {
    expect(outcome(keyHolding('orders.read'), null)).toBe('403 Forbidden: Missing permission orders.read');
  });
});

describe('RequireRecentAuthentication', () => {
  it('lets in a session that proved its account within RECENT_AUTH_SECONDS', () => {
    expect(outcome(personProvedAt(RECENT_SECONDS - 5, 'settings.manage'), 3, 'issueKey')).toBe(true);
  });

  it('refuses one that proved it longer ago', () => {
    expect(outcome(personProvedAt(RECENT_SECONDS + 5, 'settings.manage'), 3, 'issueKey')).toBe(
      '403 Forbidden: recent authentication required',
    );
  });

  it('answers a missing permission first', () => {
    expect(outcome(personProvedAt(RECENT_SECONDS + 5, 'orders.read'), 3, 'issueKey')).toBe(
      '403 Forbidden: Missing permission settings.manage',
    );
  });

  it('is not a rule for keys', () => {
    expect(outcome(keyHolding('settings.manage'), 3, 'issueKey')).toBe(true);
  });
});

describe("a brand's second-factor policy", () => {
  // A member of brand 3, whose policy requires a second factor the session lacks, and of brand 4.
  const blocked: Principal = {
    ...personProvedAt(0, 'orders.read', 'settings.manage'),
    lacksSecondFactorFor: (brandId) => brandId === 3,
  };

  it('refuses the session in that brand, before the permission', () => {
    expect(outcome(blocked, 3)).toBe('403 Forbidden: second factor required');
    expect(outcome(blocked, 3, 'issueKey')).toBe('403 Forbidden: second factor required');
  });

  it('lets it act in another brand, and on its own account', () => {
    expect(outcome(blocked, 4)).toBe(true);
    expect(outcome(blocked, 3, 'me')).toBe(true);
  });

  it('never refuses a key', () => {
    expect(outcome(keyHolding('orders.read'), 3)).toBe(true);
  });
});
