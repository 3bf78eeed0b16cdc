import request from 'supertest';
import { Fixtures, issueKey, siteWithKey } from './support/fixtures';
import { seedOrder } from './support/orders-seed';
import { createTestDatabase, type TestDatabase } from './support/test-database';
import { startTestApp, type TestApp } from './support/test-app';

/** Each endpoint × each kind of caller: sessions, integration keys (with, without, full, other brand), site key. */
type Caller =
  'anonymous' | 'superadmin' | 'manager' | 'member' | 'keyRead' | 'keyStock' | 'keyFull' | 'keyOtherBrand' | 'siteKey';
type Expect = number | [number, string];

const U: Expect = [401, 'Unauthorized'];
const NO_KEY: Expect = [401, 'Missing Authorization: Bearer <apiKey>'];
const BAD_KEY: Expect = [401, 'Invalid or inactive API key'];
const MISSING = (p: string): Expect => [403, `Forbidden: Missing permission ${p}`];
const SESSION: Expect = [403, 'Forbidden: a user session is required'];
const OTHER_BRAND: Expect = [403, 'Forbidden: brand not allowed'];

/** Store-administration routes: a session with settings.manage (or a superadministrator) only; no key can hold it. */
const settingsManageOnly = (success: number): Record<Caller, Expect> => ({
  anonymous: U,
  superadmin: success,
  manager: success,
  member: MISSING('settings.manage'),
  keyRead: MISSING('settings.manage'),
  keyStock: MISSING('settings.manage'),
  keyFull: MISSING('settings.manage'),
  keyOtherBrand: MISSING('settings.manage'),
  siteKey: U,
});

describe('access matrix', () => {
  let db: TestDatabase;
  let t: TestApp;
  let brandA: number;
  let orderA: number;
  const headers = {} as Record<Caller, Record<string, string>>;
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    t = await startTestApp({ databaseUrl: db.url });
    const fx = await Fixtures.create(t.http);
    brandA = await fx.brand();
    const brandB = await fx.brand();
    orderA = await seedOrder(db.url, brandA);
    const session = (s: { token: string }) => ({ Authorization: `Bearer ${s.token}` });
    headers.anonymous = {};
    headers.superadmin = { ...session(fx.admin), 'X-Brand-Id': String(brandA) };
    headers.manager = session(await fx.member(brandA, ['settings.manage']));
    headers.member = session(await fx.member(brandA, ['orders.read']));
    headers.keyRead = (await issueKey(fx, brandA, { permissions: ['orders.read'] })).headers;
    headers.keyStock = (await issueKey(fx, brandA, { permissions: ['stock.read'] })).headers;
    headers.keyFull = (await issueKey(fx, brandA, { fullAccess: true })).headers;
    headers.keyOtherBrand = (await issueKey(fx, brandB, { fullAccess: true })).headers;
    headers.siteKey = (await siteWithKey(fx, brandA)).headers;
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  const rows: Array<{ name: string; call: () => request.Test; expect: Record<Caller, Expect> }> = [
    {
      name: 'GET /orders/admin/all?limit=1',
      call: () => request(t.http).get('/orders/admin/all?limit=1'),
      expect: {
        anonymous: U,
        superadmin: 200,
        manager: MISSING('orders.read'),
        member: 200,
        keyRead: 200,
        keyStock: MISSING('orders.read'),
        keyFull: 200,
        keyOtherBrand: 200,
        siteKey: U,
      },
    },
    {
      name: 'GET /orders/admin/:orderId (brand A order)',
      call: () => request(t.http).get(`/orders/admin/${orderA}`),
      expect: {
        anonymous: U,
        superadmin: 200,
        manager: MISSING('orders.read'),
        member: 200,
        keyRead: 200,
        keyStock: MISSING('orders.read'),
        keyFull: 200,
        keyOtherBrand: OTHER_BRAND,
        siteKey: U,
      },
    },
    {
      name: 'POST /admin/brands/A/integration-keys',
      call: () =>
        request(t.http)
          .post(`/admin/brands/${brandA}/integration-keys`)
          .send({ name: `m${++n}`, permissions: ['orders.read'] }),
      expect: settingsManageOnly(201),
    },
    {
      name: 'GET /admin/brands/A/integration-keys',
      call: () => request(t.http).get(`/admin/brands/${brandA}/integration-keys`),
      expect: settingsManageOnly(200),
    },
    {
      name: 'POST /admin/brands/A/production-sites',
      call: () =>
        request(t.http)
          .post(`/admin/brands/${brandA}/production-sites`)
          .send({ name: `site ${++n}` }),
      expect: settingsManageOnly(201),
    },
    {
      name: 'GET /admin/brands/A/security-journal',
      call: () => request(t.http).get(`/admin/brands/${brandA}/security-journal`),
      expect: settingsManageOnly(200),
    },
    {
      name: 'GET /admin/security-journal',
      call: () => request(t.http).get('/admin/security-journal'),
      expect: {
        anonymous: U,
        superadmin: 200,
        manager: MISSING('platform.admin'),
        member: MISSING('platform.admin'),
        keyRead: MISSING('platform.admin'),
        keyStock: MISSING('platform.admin'),
        keyFull: MISSING('platform.admin'),
        keyOtherBrand: MISSING('platform.admin'),
        siteKey: U,
      },
    },
    {
      name: 'POST /admin/brands',
      call: () =>
        request(t.http)
          .post('/admin/brands')
          .send({ name: 'b', slug: `matrix-${++n}` }),
      expect: {
        anonymous: U,
        superadmin: 201,
        manager: MISSING('platform.admin'),
        member: MISSING('platform.admin'),
        keyRead: MISSING('platform.admin'),
        keyStock: MISSING('platform.admin'),
        keyFull: MISSING('platform.admin'),
        keyOtherBrand: MISSING('platform.admin'),
        siteKey: U,
      },
    },
    {
      name: 'GET /auth/me',
      call: () => request(t.http).get('/auth/me'),
      expect: {
        anonymous: U,
        superadmin: 200,
        manager: 200,
        member: 200,
        keyRead: SESSION,
        keyStock: SESSION,
        keyFull: SESSION,
        keyOtherBrand: SESSION,
        siteKey: U,
      },
    },
    {
      name: 'GET /production-api/me',
      call: () => request(t.http).get('/production-api/me'),
      expect: {
        anonymous: NO_KEY,
        superadmin: BAD_KEY,
        manager: BAD_KEY,
        member: BAD_KEY,
        keyRead: BAD_KEY,
        keyStock: BAD_KEY,
        keyFull: BAD_KEY,
        keyOtherBrand: BAD_KEY,
        siteKey: 200,
      },
    },
  ];

  for (const row of rows) {
    for (const [caller, expected] of Object.entries(row.expect) as Array<[Caller, Expect]>) {
      const [status, text] = Array.isArray(expected) ? expected : [expected, undefined];
      it(`${row.name} as ${caller} → ${status}${text ? ` ${text}` : ''}`, async () => {
        const response = await row.call().set(headers[caller]);
        expect(response.status).toBe(status);
        if (text) expect(response.body.error).toBe(text);
      });
    }
  }
});
