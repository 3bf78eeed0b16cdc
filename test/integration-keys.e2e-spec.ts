import request from 'supertest';
import { Fixtures, issueKey, journal } from './support/fixtures';
import { seedOrder } from './support/orders-seed';
import { databaseAsText } from './support/database-text';
import { closeSuite, openSuite } from './support/suite';
import { withClient, type TestDatabase } from './support/test-database';
import { bearer, login, type TestApp } from './support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('integration keys', () => {
  let db: TestDatabase;
  let t: TestApp;
  let fx: Fixtures;
  let brandA: number;
  let brandB: number;

  beforeAll(async () => {
    ({ db, t, fx } = await openSuite());
    brandA = await fx.brand();
    brandB = await fx.brand();
  });
  afterAll(() => closeSuite({ db, t }));

  const check = (headers: Record<string, string>) => request(t.http).get('/orders/admin/all?limit=1').set(headers);

  describe('issue', () => {
    it('answers 201 with the key shown once, bound to the brand of the admin area', async () => {
      const response = await request(t.http)
        .post(`/admin/brands/${brandA}/integration-keys`)
        .set(bearer(fx.admin))
        .send({ name: 'Storefront', permissions: ['orders.create_partner', 'orders.read'] })
        .expect(201);
      expect(response.body).toEqual({
        id: expect.any(Number),
        name: 'Storefront',
        key: expect.stringMatching(/^csh_at_[0-9a-f]{64}$/),
        keyHint: `csh_at_...${response.body.key.slice(-4)}`,
        permissions: ['orders.read', 'orders.create_partner'],
        fullAccess: false,
        expiresAt: null,
        status: 'active',
        createdAt: expect.any(String),
        createdBy: { id: fx.admin.userId, email: expect.any(String) },
        lastUsedAt: null,
        lastUsedIp: null,
        allowedIps: null,
        rolledFromId: null,
        revokedAt: null,
      });
      const list = await request(t.http)
        .get(`/admin/brands/${brandA}/integration-keys`)
        .set(bearer(fx.admin))
        .expect(200);
      const listed = list.body.items.find((k: { id: number }) => k.id === response.body.id);
      expect(listed).toMatchObject({ name: 'Storefront', status: 'active' });
      expect(listed).not.toHaveProperty('key');
      expect(JSON.stringify(list.body)).not.toContain(response.body.key);
    });

    it.each([
      [{ name: 'x' }, 'give either a non-empty permissions list or fullAccess: true, not both'],
      [{ name: 'x', permissions: [] }, 'give either a non-empty permissions list or fullAccess: true, not both'],
      [
        { name: 'x', permissions: ['orders.read'], fullAccess: true },
        'give either a non-empty permissions list or fullAccess: true, not both',
      ],
      [{ name: 'x', permissions: ['settings.manage'] }, 'settings.manage cannot be granted to an integration key'],
      [
        { name: 'x', permissions: ['orders.fly'] },
        expect.stringMatching(/^each value in permissions must be one of: /),
      ],
      [{ name: 'x', fullAccess: true, expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt must be in the future'],
      [{ name: 'x', fullAccess: true, expiresAt: 'tomorrow' }, 'expiresAt must be a valid ISO 8601 date string'],
      [{ permissions: ['orders.read'] }, 'name must be a string'],
      [{ name: '', fullAccess: true }, 'name must be longer than or equal to 1 characters'],
    ])('refuses %p with 400', async (body, error) => {
      const response = await request(t.http)
        .post(`/admin/brands/${brandA}/integration-keys`)
        .set(bearer(fx.admin))
        .send(body)
        .expect(400);
      expect(response.body.error).toEqual(error);
    });

    it('is journaled with the integration name', async () => {
      const key = await issueKey(fx, brandA, { name: 'ERP sync', fullAccess: true });
      const entry = (await journal(fx)).find((e) => e.type === 'integration_key_issued' && e.details.keyId === key.id);
      expect(entry).toMatchObject({
        brandId: brandA,
        actor: { kind: 'user', id: fx.admin.userId },
        details: { name: 'ERP sync' },
      });
    });

    it('stores only a fingerprint: no table holds the key or its random part', async () => {
      const key = await issueKey(fx, brandA, { name: 'Dump check', fullAccess: true });
      const body = key.key.slice('csh_at_'.length);
      const dump = await databaseAsText(db.url);
      expect(dump.length).toBeGreaterThan(0);
      expect(dump).not.toContain(body.slice(0, 56));
      expect(dump).not.toContain(Buffer.from(body, 'utf8').toString('hex'));
    });
  });

  describe('use', () => {
    it('opens what its permissions allow in its own brand', async () => {
      const key = await issueKey(fx, brandA, { permissions: ['orders.read'] });
      const response = await check(key.headers).expect(200);
      expect(response.body).toEqual({ items: [], total: 0 });
    });

    it('a missing permission gives 403 naming it', async () => {
      const key = await issueKey(fx, brandA, { permissions: ['stock.read'] });
      const response = await check(key.headers).expect(403);
      expect(response.body.error).toBe('Forbidden: Missing permission orders.read');
    });

    it('fullAccess opens every brand permission but not settings.manage', async () => {
      const key = await issueKey(fx, brandA, { fullAccess: true });
      await check(key.headers).expect(200);
      const response = await request(t.http)
        .get(`/admin/brands/${brandA}/integration-keys`)
        .set(key.headers)
        .expect(403);
      expect(response.body.error).toBe('Forbidden: Missing permission settings.manage');
    });

    it('a key cannot manage keys, even of its own brand', async () => {
      const key = await issueKey(fx, brandA, { fullAccess: true });
      const response = await request(t.http)
        .post(`/admin/brands/${brandA}/integration-keys`)
        .set(key.headers)
        .send({ name: 'escalate', fullAccess: true })
        .expect(403);
      expect(response.body.error).toBe('Forbidden: Missing permission settings.manage');
    });

    it('acts in its own brand whatever X-Brand-Id says', async () => {
      await seedOrder(db.url, brandB);
      const key = await issueKey(fx, brandA, { permissions: ['orders.read'] });
      const response = await check({ ...key.headers, 'X-Brand-Id': String(brandB) }).expect(200);
      expect(response.body.total).toBe(0);
    });

    it('a record of another brand addressed by id gives 403 Forbidden: brand not allowed, journaled', async () => {
      const foreignOrder = await seedOrder(db.url, brandB);
      const key = await issueKey(fx, brandA, { permissions: ['orders.read'] });
      const response = await request(t.http)
        .get(`/orders/admin/${foreignOrder}`)
        .set(key.headers)
        .set('X-Forwarded-For', '10.0.0.1')
        .expect(403);
      expect(response.body.error).toBe('Forbidden: brand not allowed');
      const entry = (await journal(fx)).find((e) => e.type === 'brand_violation' && e.details.id === foreignOrder);
      expect(entry).toMatchObject({
        brandId: brandA,
        targetBrandId: brandB,
        actor: { kind: 'integration_key', id: key.id },
        method: 'GET',
        path: `/orders/admin/${foreignOrder}`,
        ip: expect.any(String),
        details: { resource: 'order', id: foreignOrder },
      });
    });

    it('the well-formed answers: no header, no prefix, unknown, mistyped, via cookie → 401 Unauthorized', async () => {
      const key = await issueKey(fx, brandA, { permissions: ['orders.read'] });
      const typo = key.key.slice(0, 30) + (key.key[30] === '0' ? '1' : '0') + key.key.slice(31);
      const cases: Array<Record<string, string>> = [
        {},
        { Authorization: `Bearer ${key.key.slice('csh_at_'.length)}` },
        { Authorization: `Bearer xsh_at_${key.key.slice(7)}` },
        { Authorization: `Bearer ${typo}` },
        { Authorization: `Bearer ${key.key.slice(0, -1)}` },
        { Authorization: 'Bearer csh_at_' + 'ab'.repeat(28) + '00000000' },
        { Cookie: `session=${key.key}` },
      ];
      for (const headers of cases) {
        const response = await check(headers).expect(401);
        expect(response.body.error).toBe('Unauthorized');
      }
      await check(key.headers).expect(200);
    });

    it('never opens the production API', async () => {
      const key = await issueKey(fx, brandA, { fullAccess: true });
      const response = await request(t.http).get('/production-api/me').set(key.headers).expect(401);
      expect(response.body.error).toBe('Invalid or inactive API key');
    });

    it('has no session: /auth/me answers 403', async () => {
      const key = await issueKey(fx, brandA, { fullAccess: true });
      const response = await request(t.http).get('/auth/me').set(key.headers).expect(403);
      expect(response.body.error).toBe('Forbidden: a user session is required');
    });

    it('records lastUsedAt at most once a minute', async () => {
      const key = await issueKey(fx, brandA, { permissions: ['orders.read'] });
      await check(key.headers).expect(200);
      const read = async () =>
        (await withClient(db.url, (c) => c.query('SELECT last_used_at FROM integration_keys WHERE id = $1', [key.id])))
          .rows[0].last_used_at as Date | null;
      const deadline = Date.now() + 5000;
      while ((await read()) === null && Date.now() < deadline) await sleep(50);
      expect(await read()).not.toBeNull();

      const recent = new Date(Date.now() - 30_000);
      await withClient(db.url, (c) =>
        c.query('UPDATE integration_keys SET last_used_at = $2 WHERE id = $1', [key.id, recent]),
      );
      await check(key.headers).expect(200);
      await sleep(200);
      expect((await read())!.getTime()).toBe(recent.getTime());

      await withClient(db.url, (c) =>
        c.query(`UPDATE integration_keys SET last_used_at = now() - interval '2 minutes' WHERE id = $1`, [key.id]),
      );
      await check(key.headers).expect(200);
      const until = Date.now() + 5000;
      while (Date.now() - (await read())!.getTime() > 60_000 && Date.now() < until) await sleep(50);
      expect(Date.now() - (await read())!.getTime()).toBeLessThan(60_000);
      const list = await request(t.http)
        .get(`/admin/brands/${brandA}/integration-keys`)
        .set(bearer(fx.admin))
        .expect(200);
      expect(list.body.items.find((k: { id: number }) => k.id === key.id).lastUsedAt).toEqual(expect.any(String));
    });
  });

  // In every instance on the database at once: test/medium/access-keys-instances.
  describe('revoke', () => {
    it('answers 200 with status revoked; the very next request gets 401; a repeat is harmless and journaled once', async () => {
      const key = await issueKey(fx, brandA, { name: 'To revoke', permissions: ['orders.read'] });
      await check(key.headers).expect(200);
      const revoked = await request(t.http)
        .post(`/admin/brands/${brandA}/integration-keys/${key.id}/revoke`)
        .set(bearer(fx.admin))
        .expect(200);
      expect(revoked.body).toMatchObject({ id: key.id, status: 'revoked', revokedAt: expect.any(String) });
      const after = await check(key.headers).expect(401);
      expect(after.body.error).toBe('Unauthorized');
      await request(t.http)
        .post(`/admin/brands/${brandA}/integration-keys/${key.id}/revoke`)
        .set(bearer(fx.admin))
        .expect(200);
      const entries = (await journal(fx)).filter(
        (e) => e.type === 'integration_key_revoked' && e.details.keyId === key.id,
      );
      expect(entries).toHaveLength(1);
      expect(entries[0].details.name).toBe('To revoke');
    });

    it('a key of another brand addressed through this brand: 403 Forbidden: brand not allowed, journaled, key untouched', async () => {
      const foreign = await issueKey(fx, brandB, { permissions: ['orders.read'] });
      const manager = await fx.member(brandA, ['settings.manage']);
      const response = await request(t.http)
        .post(`/admin/brands/${brandA}/integration-keys/${foreign.id}/revoke`)
        .set(bearer(manager))
        .expect(403);
      expect(response.body.error).toBe('Forbidden: brand not allowed');
      await check(foreign.headers).expect(200);
      const entry = (await journal(fx)).find(
        (e) => e.type === 'brand_violation' && e.details.resource === 'integration_key' && e.details.id === foreign.id,
      );
      expect(entry).toMatchObject({
        brandId: brandA,
        targetBrandId: brandB,
        actor: { kind: 'user', id: manager.userId },
      });
    });

    it('an unknown key id gets 404', async () => {
      await request(t.http)
        .post(`/admin/brands/${brandA}/integration-keys/999999/revoke`)
        .set(bearer(fx.admin))
        .expect(404);
    });
  });

  describe('expiry', () => {
    it('works until expiresAt, then is treated as unknown (401) and listed as expired', async () => {
      const expiresAt = new Date(Date.now() + 1500).toISOString();
      const key = await issueKey(fx, brandA, { permissions: ['orders.read'], expiresAt });
      await check(key.headers).expect(200);
      await sleep(1700);
      const response = await check(key.headers).expect(401);
      expect(response.body.error).toBe('Unauthorized');
      const list = await request(t.http)
        .get(`/admin/brands/${brandA}/integration-keys`)
        .set(bearer(fx.admin))
        .expect(200);
      expect(list.body.items.find((k: { id: number }) => k.id === key.id)).toMatchObject({
        status: 'expired',
        expiresAt,
      });
    });
  });

  describe('the author rule', () => {
    it("a superadministrator's key stops when its author loses superadministrator rights, and works again if they return", async () => {
      const author = await fx.user({ isSuperadmin: true });
      const session = await login(t.http, author.email, author.password);
      const key = await issueKey(fx, brandA, { permissions: ['orders.read'] }, session);
      await check(key.headers).expect(200);
      await request(t.http)
        .patch(`/admin/users/${author.id}`)
        .set(bearer(fx.admin))
        .send({ isSuperadmin: false })
        .expect(200);
      expect((await check(key.headers).expect(401)).body.error).toBe('Unauthorized');
      await request(t.http)
        .patch(`/admin/users/${author.id}`)
        .set(bearer(fx.admin))
        .send({ isSuperadmin: true })
        .expect(200);
      await check(key.headers).expect(200);
    });

    it("a superadministrator's key stops even if its author is a settings.manage member of the brand", async () => {
      const author = await fx.user({ isSuperadmin: true });
      await fx.grant(brandA, author.id, ['settings.manage']);
      const session = await login(t.http, author.email, author.password);
      const key = await issueKey(fx, brandA, { permissions: ['orders.read'] }, session);
      await request(t.http)
        .patch(`/admin/users/${author.id}`)
        .set(bearer(fx.admin))
        .send({ isSuperadmin: false })
        .expect(200);
      await check(key.headers).expect(401);
    });

    it("a member's key stops when its author loses settings.manage in the brand", async () => {
      const author = await fx.user();
      await fx.grant(brandA, author.id, ['settings.manage', 'orders.read']);
      const session = await login(t.http, author.email, author.password);
      const key = await issueKey(fx, brandA, { permissions: ['orders.read'] }, session);
      await check(key.headers).expect(200);
      await fx.grant(brandA, author.id, ['orders.read']);
      await check(key.headers).expect(401);
      await fx.grant(brandA, author.id, ['settings.manage']);
      await check(key.headers).expect(200);
    });

    it("a member's key keeps working if its author becomes a superadministrator instead", async () => {
      const author = await fx.user();
      await fx.grant(brandA, author.id, ['settings.manage']);
      const session = await login(t.http, author.email, author.password);
      const key = await issueKey(fx, brandA, { permissions: ['orders.read'] }, session);
      await request(t.http)
        .patch(`/admin/users/${author.id}`)
        .set(bearer(fx.admin))
        .send({ isSuperadmin: true })
        .expect(200);
      await fx.grant(brandA, author.id, []);
      await check(key.headers).expect(200);
    });

    it("any key stops when its author's account is switched off", async () => {
      const author = await fx.user();
      await fx.grant(brandA, author.id, ['settings.manage']);
      const session = await login(t.http, author.email, author.password);
      const key = await issueKey(fx, brandA, { permissions: ['orders.read'] }, session);
      await request(t.http)
        .patch(`/admin/users/${author.id}`)
        .set(bearer(fx.admin))
        .send({ active: false })
        .expect(200);
      await check(key.headers).expect(401);
    });

    it('a member with settings.manage of one brand cannot issue keys for another', async () => {
      const manager = await fx.member(brandA, ['settings.manage']);
      const response = await request(t.http)
        .post(`/admin/brands/${brandB}/integration-keys`)
        .set(bearer(manager))
        .send({ name: 'x', fullAccess: true })
        .expect(403);
      expect(response.body.error).toBe('Forbidden: Missing permission settings.manage');
    });
  });
});
