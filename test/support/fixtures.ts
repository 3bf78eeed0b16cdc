import request from 'supertest';
import type { BrandPermission } from '../../src/common/context/permissions';
import { ADMIN, bearer, login, type Session, type TestApp } from './test-app';

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++sequence}`;

/** Sets up brands, users and memberships through the real admin API, as the superadministrator. */
export class Fixtures {
  private constructor(
    readonly http: TestApp['http'],
    readonly admin: Session,
  ) {}

  static async create(http: TestApp['http']): Promise<Fixtures> {
    return new Fixtures(http, await login(http, ADMIN.email, ADMIN.password));
  }

  async brand(name = unique('brand')): Promise<number> {
    const response = await request(this.http)
      .post('/admin/brands')
      .set(bearer(this.admin))
      .send({
        name,
        slug: name
          .toLowerCase()
          .replace(/[^a-z0-9-]/g, '-')
          .slice(0, 40),
      })
      .expect(201);
    return response.body.id;
  }

  async user(options: { email?: string; password?: string; isSuperadmin?: boolean } = {}) {
    const email = options.email ?? `${unique('user')}@example.com`;
    const password = options.password ?? 'user-password-1';
    const response = await request(this.http)
      .post('/admin/users')
      .set(bearer(this.admin))
      .send({ email, password, isSuperadmin: options.isSuperadmin ?? false })
      .expect(201);
    return { id: response.body.id as number, email, password };
  }

  async grant(brandId: number, userId: number, permissions: BrandPermission[]): Promise<void> {
    await request(this.http)
      .put(`/admin/brands/${brandId}/members/${userId}`)
      .set(bearer(this.admin))
      .send({ permissions })
      .expect(200);
  }

  /** A user with these permissions in this brand, signed in. */
  async member(brandId: number, permissions: BrandPermission[]): Promise<Session> {
    const user = await this.user();
    await this.grant(brandId, user.id, permissions);
    return login(this.http, user.email, user.password);
  }
}

export interface IssuedKey {
  id: number;
  key: string;
  headers: { Authorization: string };
}

/** Issues an integration key through the real endpoint, as the superadministrator. */
export async function issueKey(
  fx: Fixtures,
  brandId: number,
  body: { name?: string; permissions?: BrandPermission[]; fullAccess?: boolean; expiresAt?: string },
  as: Session = fx.admin,
): Promise<IssuedKey> {
  const response = await request(fx.http)
    .post(`/admin/brands/${brandId}/integration-keys`)
    .set(bearer(as))
    .send({ name: 'Test integration', ...body })
    .expect(201);
  return { id: response.body.id, key: response.body.key, headers: { Authorization: `Bearer ${response.body.key}` } };
}

/** A production site with one key, through the real endpoints. */
export async function siteWithKey(fx: Fixtures, brandId: number, name = 'Workshop') {
  const site = await request(fx.http)
    .post(`/admin/brands/${brandId}/production-sites`)
    .set(bearer(fx.admin))
    .send({ name })
    .expect(201);
  const key = await request(fx.http)
    .post(`/admin/brands/${brandId}/production-sites/${site.body.id}/keys`)
    .set(bearer(fx.admin))
    .expect(201);
  return {
    siteId: site.body.id as number,
    keyId: key.body.id as number,
    key: key.body.key as string,
    headers: { Authorization: `Bearer ${key.body.key}` },
  };
}

/** The journal as the superadministrator sees it, newest first. */
export async function journal(fx: Fixtures, limit = 200) {
  const response = await request(fx.http)
    .get(`/admin/security-journal?limit=${limit}`)
    .set(bearer(fx.admin))
    .expect(200);
  return response.body.items as Array<{
    id: number;
    type: string;
    brandId: number | null;
    targetBrandId?: number;
    actor: { kind: string; id: number } | null;
    method: string;
    path: string;
    ip: string;
    details: Record<string, unknown>;
  }>;
}

export interface ProductInput {
  name?: string;
  article: string;
  storefrontArticle?: string;
  priceKopeks: number;
  sizes?: Array<{ name: string; priceKopeks?: number; stock?: number }>;
  attributes?: Record<string, unknown>;
}

/** Creates a product through the catalog API with a products.write key of the brand. */
export async function createProduct(fx: Fixtures, brandId: number, input: ProductInput) {
  const writer = await issueKey(fx, brandId, {
    name: 'catalog loader',
    permissions: ['products.write', 'products.read'],
  });
  const response = await request(fx.http)
    .post('/catalog/products')
    .set(writer.headers)
    .send({ name: input.name ?? `Product ${input.article}`, ...input })
    .expect(201);
  return response.body as {
    id: number;
    article: string;
    storefrontArticle: string | null;
    sizes: Array<{ id: number; name: string; priceKopeks: number | null; stock: number }>;
  };
}

export type StorefrontProduct = Awaited<ReturnType<typeof createProduct>>;

/** The storefront suites' two products: a shirt with a size of its own price, and a cap of one unit. */
export async function seedShirtAndCap(fx: Fixtures, brandId: number) {
  const shirt = await createProduct(fx, brandId, {
    name: 'Linen shirt',
    article: 'LS-001',
    storefrontArticle: 'SF-SHIRT',
    priceKopeks: 450000,
    sizes: [
      { name: 'M', stock: 100 },
      { name: 'XL', priceKopeks: 480000, stock: 5 },
    ],
  });
  const cap = await createProduct(fx, brandId, {
    name: 'Cap',
    article: 'CAP-1',
    storefrontArticle: 'SF-CAP',
    priceKopeks: 90000,
    sizes: [{ name: 'One size', stock: 1 }],
  });
  return { shirt, cap };
}
