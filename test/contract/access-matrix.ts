import request from 'supertest';
import { ErrorText } from '../../src/common/errors/error-texts';
import { Fixtures, issueKey, siteWithKey } from '../support/fixtures';
import { seedOrder } from '../support/orders-seed';
import { routeTable, type Access } from '../support/route-table';
import type { SharedSuite } from '../support/suite';
import type { TestDatabase } from '../support/test-database';
import { login, type TestApp } from '../support/test-app';

/**
 * Every route × every kind of caller, the expectation derived from the route's access decision
 * (the reviewed snapshot of route-access.spec.ts), so a new route is covered the day it is
 * added. A caller the guards let through gets neither 401 nor 403 (a 400 for the empty body or a
 * 404 for the unknown id is its answer); one they stop gets the exact status and text.
 */
const CALLERS = [
  'anonymous',
  'superadmin',
  'manager',
  'member',
  'outsider',
  'keyRead',
  'keyFull',
  'keyOtherBrand',
  'siteKey',
] as const;
type Caller = (typeof CALLERS)[number];
type Outcome = 'allowed' | [number, string];

const SESSIONS: readonly Caller[] = ['superadmin', 'manager', 'member', 'outsider'];
/** What each caller holds in brand A (keyOtherBrand: full access, in brand B). */
const HOLDS: Partial<Record<Caller, (permission: string) => boolean>> = {
  manager: (p) => p === 'settings.manage',
  member: (p) => p === 'orders.read',
  outsider: () => false,
  keyRead: (p) => p === 'orders.read',
  keyFull: (p) => p !== 'settings.manage',
};

const UNAUTHORIZED: Outcome = [401, ErrorText.unauthorized];
const missing = (permission: string): Outcome => [403, ErrorText.missingPermission(permission)];

function expected(access: Access, caller: Caller): Outcome {
  switch (access.kind) {
    case 'public':
      return 'allowed';
    case 'signed':
      return [401, ErrorText.invalidSignature];
    case 'realm':
      if (caller === 'siteKey') return 'allowed';
      return caller === 'anonymous' ? [401, ErrorText.missingApiKey] : [401, ErrorText.invalidApiKey];
    case 'session':
      if (caller === 'anonymous' || caller === 'siteKey') return UNAUTHORIZED;
      return SESSIONS.includes(caller) ? 'allowed' : [403, ErrorText.sessionRequired];
    case 'anyPermission': {
      // Brand-scoped like a permission; a key of another brand reads its own brand's.
      if (caller === 'anonymous' || caller === 'siteKey') return UNAUTHORIZED;
      if (caller === 'superadmin' || caller === 'keyOtherBrand') return 'allowed';
      if (caller === 'outsider') return [403, ErrorText.noBrandAccess];
      return access.permissions.some(HOLDS[caller]!) ? 'allowed' : missing(access.permissions[0]);
    }
    case 'permission': {
      const p = access.permission;
      if (caller === 'anonymous' || caller === 'siteKey') return UNAUTHORIZED;
      if (caller === 'superadmin') return 'allowed';
      if (access.brand === null) return missing(p);
      if (caller === 'keyOtherBrand') {
        // Brand-from-path routes are the store's settings, which no key holds.
        if (access.brand === 'path') return missing('settings.manage');
        return p === 'settings.manage' ? missing(p) : 'allowed';
      }
      if (caller === 'outsider' && access.brand === 'scoped') return [403, ErrorText.noBrandAccess];
      return HOLDS[caller]!(p) ? 'allowed' : missing(p);
    }
  }
}

export function describeAccessMatrix(shared: SharedSuite): void {
  describe('access matrix (derived from the route table)', () => {
    let db: TestDatabase;
    let t: TestApp;
    let brandA: number;
    let orderA: number;
    const headers = {} as Record<Caller, Record<string, string>>;

    beforeAll(async () => {
      ({ db, t } = shared.suite);
      // A session of its own: the matrix logs its callers out at the end.
      const fx = await Fixtures.create(t.http);
      brandA = await fx.brand();
      const brandB = await fx.brand();
      orderA = await seedOrder(db.url, brandA);
      const session = (s: { token: string }) => ({ Authorization: `Bearer ${s.token}` });
      headers.anonymous = {};
      headers.superadmin = { ...session(fx.admin), 'X-Brand-Id': String(brandA) };
      headers.manager = session(await fx.member(brandA, ['settings.manage']));
      headers.member = session(await fx.member(brandA, ['orders.read']));
      const outsider = await fx.user();
      headers.outsider = session(await login(t.http, outsider.email, outsider.password));
      headers.keyRead = (await issueKey(fx, brandA, { permissions: ['orders.read'] })).headers;
      headers.keyFull = (await issueKey(fx, brandA, { fullAccess: true })).headers;
      headers.keyOtherBrand = (await issueKey(fx, brandB, { fullAccess: true })).headers;
      headers.siteKey = (await siteWithKey(fx, brandA)).headers;
    });

    // Logging out ends the caller's session, so that route goes last.
    const routes = routeTable().sort((a, b) => Number(a.path === '/auth/logout') - Number(b.path === '/auth/logout'));
    for (const route of routes) {
      const [access] = route.decisions;
      for (const caller of CALLERS) {
        const outcome = expected(access, caller);
        const label = outcome === 'allowed' ? 'let through' : `${outcome[0]} ${outcome[1]}`;
        it(`${route.method} ${route.path} as ${caller} → ${label}`, async () => {
          const path = route.path.replace(/:(\w+)/g, (_, name: string) =>
            name === 'brandId' ? String(brandA) : '999999',
          );
          const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
          let test = request(t.http)[method](path).set(headers[caller]);
          if (method !== 'get' && method !== 'delete') test = test.send({});
          const response = await test;
          if (outcome === 'allowed') {
            expect([401, 403]).not.toContain(response.status);
            expect(response.status).toBeLessThan(500);
          } else {
            expect({ status: response.status, error: response.body.error }).toEqual({
              status: outcome[0],
              error: outcome[1],
            });
          }
        });
      }
    }

    it('covers the route table: every route, every caller', () => {
      expect(routes.length).toBeGreaterThan(30);
      expect(routes.every((route) => route.decisions.length === 1)).toBe(true);
    });

    it("a full-access key of another brand is refused brand A's records with 403 brand not allowed", async () => {
      const response = await request(t.http).get(`/orders/admin/${orderA}`).set(headers.keyOtherBrand);
      expect({ status: response.status, error: response.body.error }).toEqual({
        status: 403,
        error: ErrorText.brandNotAllowed,
      });
      await request(t.http).get(`/orders/admin/${orderA}`).set(headers.keyRead).expect(200);
    });
  });
}
