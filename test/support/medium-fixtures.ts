import { randomBytes } from 'node:crypto';
import type { BrandContext } from '../../src/common/context/request-context';
import { BrandsService } from '../../src/identity/brands.service';
import { UserPrincipal } from '../../src/identity/user-principal';
import { UsersService } from '../../src/identity/users.service';
import type { MediumSuite } from './medium';

/** A brand of its own, made through the identity module's service as the admin API makes it. */
export async function mediumBrand(
  suite: MediumSuite,
  name = `Brand ${randomBytes(3).toString('hex')}`,
): Promise<number> {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return (await suite.get(BrandsService).create({ name, slug })).id;
}

/** A superadministrator acting in `brandId`, as the guard chain would hand it to a service. */
export async function superadminContext(suite: MediumSuite, brandId: number): Promise<BrandContext> {
  const email = `admin-${randomBytes(4).toString('hex')}@example.com`;
  const user = await suite.get(UsersService).create({ email, password: 'medium-password-1', isSuperadmin: true });
  return {
    requestId: `medium-${randomBytes(4).toString('hex')}`,
    ip: '127.0.0.1',
    method: 'POST',
    path: '/medium',
    principal: new UserPrincipal(user.id, email, true, 'medium-session', []),
    brandId,
  };
}

/** A request as the guard chain reads it, from `ip` (the client address TRUST_PROXY settled). */
export function mediumRequest(
  ip = '127.0.0.1',
  options: { method?: string; path?: string; headers?: Record<string, string> } = {},
): import('../../src/common/context/http-types').HttpRequest {
  return {
    id: `medium-${randomBytes(4).toString('hex')}`,
    ip,
    method: options.method ?? 'GET',
    url: options.path ?? '/medium',
    headers: options.headers ?? {},
  };
}
