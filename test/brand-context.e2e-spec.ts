import request from 'supertest';
import { ProbeModule } from './support/probe.module';
import { Fixtures } from './support/fixtures';
import { closeSuite, openSuite } from './support/suite';
import { type TestDatabase } from './support/test-database';
import { bearer, login, type Session, type TestApp } from './support/test-app';

/**
 * How a session's brand is chosen (X-Brand-Id, single membership, superadministrator), through a
 * probe route; who may call each real route is the derived access matrix's.
 */
describe('brand context of a session', () => {
  let db: TestDatabase;
  let t: TestApp;
  let fx: Fixtures;
  let brandA: number;
  let brandB: number;
  const sessions = {} as Record<'superadmin' | 'manager' | 'reader' | 'outsider', Session>;

  beforeAll(async () => {
    ({ db, t, fx } = await openSuite({ imports: [ProbeModule] }));
    brandA = await fx.brand();
    brandB = await fx.brand();
    sessions.superadmin = fx.admin;
    sessions.manager = await fx.member(brandA, ['settings.manage']);
    sessions.reader = await fx.member(brandA, ['orders.read']);
    const outsider = await fx.user();
    sessions.outsider = await login(t.http, outsider.email, outsider.password);
  });
  afterAll(() => closeSuite({ db, t }));

  describe('brand context (a brand-scoped route needing orders.read)', () => {
    const probe = (session: Session, brandHeader?: string) => {
      const test = request(t.http).get('/probe/orders').set(bearer(session));
      return brandHeader === undefined ? test : test.set('X-Brand-Id', brandHeader);
    };

    it('a member with one membership acts in it without X-Brand-Id', async () => {
      const response = await probe(sessions.reader).expect(200);
      expect(response.body).toEqual({ kind: 'user', brandId: brandA });
    });

    it('a user with no membership gets 403 Forbidden: no brand access configured', async () => {
      const response = await probe(sessions.outsider).expect(403);
      expect(response.body.error).toBe('Forbidden: no brand access configured');
    });

    it('a member of two brands must name one in X-Brand-Id', async () => {
      const user = await fx.user();
      await fx.grant(brandA, user.id, ['orders.read']);
      await fx.grant(brandB, user.id, ['orders.read']);
      const session = await login(t.http, user.email, user.password);
      const none = await probe(session).expect(403);
      expect(none.body.error).toBe('Forbidden: no brand access configured');
      const chosen = await probe(session, String(brandB)).expect(200);
      expect(chosen.body.brandId).toBe(brandB);
    });

    it('a superadministrator must send X-Brand-Id, of a brand that exists', async () => {
      const none = await probe(sessions.superadmin).expect(403);
      expect(none.body.error).toBe('Forbidden: no brand access configured');
      const unknown = await probe(sessions.superadmin, '999999').expect(403);
      expect(unknown.body.error).toBe('Forbidden: no brand access configured');
      const chosen = await probe(sessions.superadmin, String(brandB)).expect(200);
      expect(chosen.body.brandId).toBe(brandB);
    });

    it('naming a brand the user is not a member of gives no permissions there', async () => {
      const response = await probe(sessions.reader, String(brandB)).expect(403);
      expect(response.body.error).toBe('Forbidden: Missing permission orders.read');
    });

    it('a member without the permission gets 403 naming it', async () => {
      const response = await probe(sessions.manager).expect(403);
      expect(response.body.error).toBe('Forbidden: Missing permission orders.read');
    });

    it('a malformed X-Brand-Id gets 400', async () => {
      const response = await probe(sessions.reader, 'abc').expect(400);
      expect(response.body.error).toBe('X-Brand-Id must be a positive integer');
    });

    it('a route with no permission only needs an authenticated caller; @Public() needs none', async () => {
      await request(t.http).get('/probe/authenticated').expect(401);
      const response = await request(t.http).get('/probe/authenticated').set(bearer(sessions.outsider)).expect(200);
      expect(response.body).toEqual({ kind: 'user', brandId: null });
      await request(t.http).get('/probe/public').expect(200);
    });
  });
});
