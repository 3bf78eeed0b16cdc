import { randomBytes } from 'node:crypto';
import type { IntegrationKeyPrincipal } from '../../src/access-keys/integration-key.principal';
import { IntegrationKeysService } from '../../src/access-keys/integration-keys.service';
import { CatalogImportService } from '../../src/catalog/catalog-import.service';
import { CatalogService, type ProductView } from '../../src/catalog/catalog.service';
import type { CreateProductDto } from '../../src/catalog/dto/create-product.dto';
import { AppError } from '../../src/common/errors/app-error';
import type { BrandPermission } from '../../src/common/context/permissions';
import type { PartnerOrderDto } from '../../src/orders/dto/partner-order.dto';
import type { OrderRef } from '../../src/orders/new-order';
import { PartnerWebhookService } from '../../src/orders/storefront/partner-webhook.service';
import type { BrandContext } from '../../src/common/context/request-context';
import { AuthService, type LoginResult } from '../../src/identity/auth.service';
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

/** A product made through the catalog's service, named `Product <article>` unless given a name, as the e2e fixture does. */
export async function mediumProduct(
  suite: MediumSuite,
  ctx: BrandContext,
  input: Omit<CreateProductDto, 'name'> & { name?: string },
): Promise<ProductView> {
  return suite.get(CatalogService).create(ctx, { ...input, name: input.name ?? `Product ${input.article}` });
}

/** The brand's catalog export (GET /catalog/products/export's stream) read whole. */
export async function exportedCsv(imports: CatalogImportService, ctx: BrandContext): Promise<string> {
  let text = '';
  for await (const chunk of imports.export(ctx)) text += String(chunk);
  return text;
}

/** The AppError a service's call was refused with; fails when it was not refused, or with another error. */
export async function appErrorOf(call: Promise<unknown>): Promise<AppError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the call was not refused');
}

/** An integration key of `ctx`'s brand, issued by the access-keys service, and the principal its guard makes of it. */
export async function mediumIntegrationKey(
  suite: MediumSuite,
  ctx: BrandContext,
  grant: { permissions?: BrandPermission[]; fullAccess?: boolean; name?: string },
): Promise<{ id: number; key: string; principal: IntegrationKeyPrincipal }> {
  const keys = suite.get(IntegrationKeysService);
  const issued = await keys.issue(ctx, { name: 'Medium integration', ...grant });
  const principal = await keys.verify(issued.key, '127.0.0.1');
  if (!principal) throw new Error('a key just issued does not verify');
  return { id: issued.id, key: issued.key, principal };
}

/** The context of a request made with an integration key in its brand, as the guard chain hands it to services. */
export function keyContext(principal: IntegrationKeyPrincipal, path = '/medium'): BrandContext {
  return {
    requestId: `medium-${randomBytes(4).toString('hex')}`,
    ip: '127.0.0.1',
    method: 'GET',
    path,
    principal,
    brandId: principal.boundBrandId,
  };
}

/** A storefront order through the storefront webhook's service (a session's context: its key is no statement's). */
export async function mediumStorefrontOrder(
  suite: MediumSuite,
  ctx: BrandContext,
  order: { partnerOrderId: string; article: string; size: string; quantity?: number } & Partial<PartnerOrderDto>,
): Promise<OrderRef> {
  const { article, size, quantity, ...body } = order;
  const answer = await suite.get(PartnerWebhookService).accept(ctx, {
    recipient: { fullName: 'Medium Buyer', phone: '+79000000000' },
    items: [{ article, size, quantity: quantity ?? 1 }],
    ...body,
  });
  return answer.body.order;
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

/**
 * A sign-in through AuthService as `POST /auth/login` makes it, from a test address, of an account
 * without a second factor: a session.
 */
export async function mediumLogin(suite: MediumSuite, email: string, password: string): Promise<LoginResult> {
  const ctx = {
    requestId: 'medium',
    ip: '127.0.0.1',
    method: 'POST',
    path: '/auth/login',
    principal: null,
    brandId: null,
  };
  const result = await suite
    .get(AuthService)
    .login(ctx, email, password, { ip: '127.0.0.1', userAgent: 'medium-test' });
  if (!('session' in result)) throw new Error(`${email} holds a second factor: the sign-in has a second step`);
  return result;
}
