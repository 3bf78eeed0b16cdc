import request from 'supertest';
import type { Fixtures } from './support/fixtures';
import { closeSuite, openSuite } from './support/suite';
import type { TestDatabase } from './support/test-database';
import { bearer, login, type TestApp } from './support/test-app';

describe('superadministrator management: brands, users, memberships', () => {
  let db: TestDatabase;
  let t: TestApp;
  let fx: Fixtures;

  beforeAll(async () => {
    ({ db, t, fx } = await openSuite());
  });
  afterAll(() => closeSuite({ db, t }));

  describe('POST /admin/brands', () => {
    it('creates a brand: 201 {id, name, slug, staffEmail}', async () => {
      const response = await request(t.http)
        .post('/admin/brands')
        .set(bearer(fx.admin))
        .send({ name: 'Northwind', slug: 'northwind', staffEmail: 'Staff@Northwind.example' })
        .expect(201);
      expect(response.body).toEqual({
        id: expect.any(Number),
        name: 'Northwind',
        slug: 'northwind',
        staffEmail: 'staff@northwind.example',
      });
    });

    it('staffEmail is optional (null)', async () => {
      const response = await request(t.http)
        .post('/admin/brands')
        .set(bearer(fx.admin))
        .send({ name: 'No Staff', slug: 'no-staff' })
        .expect(201);
      expect(response.body.staffEmail).toBeNull();
    });

    it('a repeated slug gets 409', async () => {
      await request(t.http).post('/admin/brands').set(bearer(fx.admin)).send({ name: 'A', slug: 'twice' }).expect(201);
      const response = await request(t.http)
        .post('/admin/brands')
        .set(bearer(fx.admin))
        .send({ name: 'B', slug: 'twice' })
        .expect(409);
      expect(response.body.error).toBe('A brand with this slug already exists');
    });

    it.each([['A'], ['UPPER'], ['with space'], ['x'.repeat(41)], ['under_score']])(
      'refuses slug %p with 400',
      async (slug) => {
        const response = await request(t.http)
          .post('/admin/brands')
          .set(bearer(fx.admin))
          .send({ name: 'X', slug })
          .expect(400);
        expect(response.body.details).toContain('slug must match ^[a-z0-9-]{2,40}$');
      },
    );

    it('lists every problem of a bad body', async () => {
      const response = await request(t.http)
        .post('/admin/brands')
        .set(bearer(fx.admin))
        .send({ staffEmail: 'nope' })
        .expect(400);
      expect(response.body.details).toEqual([
        'name must be a string',
        'slug must be a string',
        'staffEmail must be an email',
      ]);
    });
  });

  describe('POST /admin/users and PATCH /admin/users/:userId', () => {
    it('creates a user: 201 {id, email, isSuperadmin}', async () => {
      const response = await request(t.http)
        .post('/admin/users')
        .set(bearer(fx.admin))
        .send({ email: 'New.Person@Example.com', password: 'long-enough-1' })
        .expect(201);
      expect(response.body).toMatchObject({
        id: expect.any(Number),
        email: 'new.person@example.com',
        isSuperadmin: false,
      });
      expect(response.body).not.toHaveProperty('passwordHash');
    });

    it('an existing e-mail (in any case) gets 409', async () => {
      await fx.user({ email: 'dup@example.com' });
      const response = await request(t.http)
        .post('/admin/users')
        .set(bearer(fx.admin))
        .send({ email: 'DUP@example.com', password: 'long-enough-1' })
        .expect(409);
      expect(response.body.error).toBe('A user with this e-mail already exists');
    });

    it('refuses a bad e-mail with 400 before the password rule', async () => {
      const response = await request(t.http)
        .post('/admin/users')
        .set(bearer(fx.admin))
        .send({ email: 'x', password: 'short' })
        .expect(400);
      // The password's length is the password rule's, checked once the body is valid (account-security.e2e-spec).
      expect(response.body.details).toEqual(['email must be an email']);
    });

    it('PATCH makes a superadministrator and takes it back', async () => {
      const user = await fx.user();
      const made = await request(t.http)
        .patch(`/admin/users/${user.id}`)
        .set(bearer(fx.admin))
        .send({ isSuperadmin: true })
        .expect(200);
      expect(made.body).toMatchObject({ id: user.id, isSuperadmin: true, active: true });
      const session = await login(t.http, user.email, user.password);
      await request(t.http).get('/admin/users').set(bearer(session)).expect(200);
      await request(t.http)
        .patch(`/admin/users/${user.id}`)
        .set(bearer(fx.admin))
        .send({ isSuperadmin: false })
        .expect(200);
      // Rights are read on every request: the same session loses them at once.
      const denied = await request(t.http).get('/admin/users').set(bearer(session)).expect(403);
      expect(denied.body.error).toBe('Forbidden: Missing permission platform.admin');
    });

    it('PATCH of an unknown user gets 404, a bad id 400', async () => {
      await request(t.http).patch('/admin/users/999999').set(bearer(fx.admin)).send({ active: false }).expect(404);
      const bad = await request(t.http)
        .patch('/admin/users/abc')
        .set(bearer(fx.admin))
        .send({ active: false })
        .expect(400);
      expect(bad.body.error).toBe('userId must be a positive integer');
    });

    it('keeps at least one active superadministrator', async () => {
      // The root is made the last one first (the medium identity suite holds the rule under concurrency).
      const users = await request(t.http).get('/admin/users').set(bearer(fx.admin)).expect(200);
      for (const other of users.body.items as Array<{ id: number; isSuperadmin: boolean; active: boolean }>) {
        if (other.id === fx.admin.userId || !other.isSuperadmin || !other.active) continue;
        await request(t.http)
          .patch(`/admin/users/${other.id}`)
          .set(bearer(fx.admin))
          .send({ isSuperadmin: false })
          .expect(200);
      }
      const response = await request(t.http)
        .patch(`/admin/users/${fx.admin.userId}`)
        .set(bearer(fx.admin))
        .send({ isSuperadmin: false })
        .expect(409);
      expect(response.body.error).toBe('The last active superadministrator cannot be removed');
      await request(t.http)
        .patch(`/admin/users/${fx.admin.userId}`)
        .set(bearer(fx.admin))
        .send({ active: false })
        .expect(409);
    });
  });

  describe('PUT /admin/brands/:brandId/members/:userId', () => {
    it('sets permissions (in the closed list order, without repeats) and an empty list removes the membership', async () => {
      const brandId = await fx.brand();
      const user = await fx.user();
      const set = await request(t.http)
        .put(`/admin/brands/${brandId}/members/${user.id}`)
        .set(bearer(fx.admin))
        .send({ permissions: ['stock.read', 'orders.read', 'stock.read'] })
        .expect(200);
      expect(set.body).toEqual({ brandId, userId: user.id, permissions: ['orders.read', 'stock.read'] });
      const session = await login(t.http, user.email, user.password);
      const me = await request(t.http).get('/auth/me').set(bearer(session)).expect(200);
      expect(me.body.memberships).toEqual([
        {
          brandId,
          brandName: expect.any(String),
          brandSlug: expect.any(String),
          permissions: ['orders.read', 'stock.read'],
          secondFactorRequired: false,
        },
      ]);

      const removed = await request(t.http)
        .put(`/admin/brands/${brandId}/members/${user.id}`)
        .set(bearer(fx.admin))
        .send({ permissions: [] })
        .expect(200);
      expect(removed.body.permissions).toEqual([]);
      const after = await request(t.http).get('/auth/me').set(bearer(session)).expect(200);
      expect(after.body.memberships).toEqual([]);
    });

    it('an unknown permission gets 400 naming the list', async () => {
      const brandId = await fx.brand();
      const user = await fx.user();
      const response = await request(t.http)
        .put(`/admin/brands/${brandId}/members/${user.id}`)
        .set(bearer(fx.admin))
        .send({ permissions: ['orders.read', 'platform.admin'] })
        .expect(400);
      expect(response.body.error).toMatch(/^each value in permissions must be one of: orders\.read, /);
    });

    it('an unknown brand or user gets 404', async () => {
      const brandId = await fx.brand();
      const user = await fx.user();
      await request(t.http)
        .put(`/admin/brands/999999/members/${user.id}`)
        .set(bearer(fx.admin))
        .send({ permissions: ['orders.read'] })
        .expect(404);
      await request(t.http)
        .put(`/admin/brands/${brandId}/members/999999`)
        .set(bearer(fx.admin))
        .send({ permissions: ['orders.read'] })
        .expect(404);
      await request(t.http)
        .put(`/admin/brands/${brandId}/members/999999`)
        .set(bearer(fx.admin))
        .send({ permissions: [] })
        .expect(404);
    });

    it('a member holding settings.manage manages members of that brand, and only that brand', async () => {
      const brandA = await fx.brand();
      const brandB = await fx.brand();
      const manager = await fx.member(brandA, ['settings.manage']);
      const user = await fx.user();
      await request(t.http)
        .put(`/admin/brands/${brandA}/members/${user.id}`)
        .set(bearer(manager))
        .send({ permissions: ['orders.read'] })
        .expect(200);
      const other = await request(t.http)
        .put(`/admin/brands/${brandB}/members/${user.id}`)
        .set(bearer(manager))
        .set('X-Brand-Id', String(brandA))
        .send({ permissions: ['orders.read'] })
        .expect(403);
      expect(other.body.error).toBe('Forbidden: Missing permission settings.manage');
    });

    it('a member without settings.manage gets 403 Forbidden: Missing permission settings.manage', async () => {
      const brandId = await fx.brand();
      const member = await fx.member(brandId, ['orders.read', 'orders.write']);
      const user = await fx.user();
      const response = await request(t.http)
        .put(`/admin/brands/${brandId}/members/${user.id}`)
        .set(bearer(member))
        .send({ permissions: ['orders.read'] })
        .expect(403);
      expect(response.body.error).toBe('Forbidden: Missing permission settings.manage');
    });
  });
});
