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
      .send({ name, slug: name.toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 40) })
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
