import { JwtService } from '@nestjs/jwt';
import request from 'supertest';
import { ProbeModule } from './support/probe.module';
import { Fixtures } from './support/fixtures';
import { closeSuite, openSuite } from './support/suite';
import { withClient, type TestDatabase } from './support/test-database';
import { ADMIN, bearer, login, TEST_SESSION_SECRET, type TestApp } from './support/test-app';

describe('sessions: login, logout, me, tokens and CSRF', () => {
  let db: TestDatabase;
  let t: TestApp;
  let fx: Fixtures;

  beforeAll(async () => {
    ({ db, t, fx } = await openSuite({ imports: [ProbeModule] }));
  });
  afterAll(() => closeSuite({ db, t }));

  describe('POST /auth/login', () => {
    it('answers 200 {token, csrfToken, user} and sets an httpOnly session cookie with the same token', async () => {
      const response = await request(t.http).post('/auth/login').send(ADMIN).expect(200);
      expect(response.body).toEqual({
        token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
        csrfToken: expect.any(String),
        user: { id: expect.any(Number), email: ADMIN.email, isSuperadmin: true },
      });
      const cookie = ([] as string[]).concat(response.headers['set-cookie'])[0];
      expect(cookie).toContain(`session=${response.body.token}`);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      // Plain HTTP (SESSION_COOKIE_SECURE unset); admin-area.e2e-spec holds the Secure one.
      expect(cookie).not.toMatch(/;\s*Secure/i);
    });

    it('treats the e-mail case-insensitively', async () => {
      await request(t.http)
        .post('/auth/login')
        .send({ email: ADMIN.email.toUpperCase(), password: ADMIN.password })
        .expect(200);
    });

    it('answers 401 Unauthorized alike for a wrong password and an unknown e-mail', async () => {
      const user = await fx.user();
      const wrongPassword = await request(t.http)
        .post('/auth/login')
        .send({ email: user.email, password: 'nope-nope' })
        .expect(401);
      const unknown = await request(t.http)
        .post('/auth/login')
        .send({ email: 'ghost@example.com', password: 'nope-nope' })
        .expect(401);
      expect(wrongPassword.body.error).toBe('Unauthorized');
      expect(unknown.body.error).toBe('Unauthorized');
      expect(Object.keys(wrongPassword.body).sort()).toEqual(Object.keys(unknown.body).sort());
    });

    it('refuses a switched-off account with the same 401', async () => {
      const user = await fx.user();
      await request(t.http).patch(`/admin/users/${user.id}`).set(bearer(fx.admin)).send({ active: false }).expect(200);
      const response = await request(t.http)
        .post('/auth/login')
        .send({ email: user.email, password: user.password })
        .expect(401);
      expect(response.body.error).toBe('Unauthorized');
    });

    it('never stores the password in the clear', async () => {
      const user = await fx.user({ password: 'plain-text-canary-77' });
      const rows = await withClient(db.url, (c) => c.query('SELECT password_hash FROM users WHERE id = $1', [user.id]));
      expect(rows.rows[0].password_hash).toMatch(/^\$argon2id\$/);
      expect(rows.rows[0].password_hash).not.toContain('plain-text-canary-77');
    });
  });

  // The window, a success clearing it, and a burst over two instances: test/medium/identity-login-throttle.
  describe('login throttling', () => {
    const failLogins = async (email: string, times: number) => {
      for (let i = 0; i < times; i++) {
        await request(t.http)
          .post('/auth/login')
          .send({ email, password: `wrong-${i}` })
          .expect(401);
      }
    };

    it('after 10 failures in 15 minutes answers 429 Too many login attempts with Retry-After, even to the right password', async () => {
      const user = await fx.user();
      await failLogins(user.email, 10);
      const locked = await request(t.http)
        .post('/auth/login')
        .send({ email: user.email, password: user.password })
        .expect(429);
      expect(locked.body.error).toBe('Too many login attempts');
      const retryAfter = Number(locked.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      // Other accounts are not affected.
      await request(t.http).post('/auth/login').send(ADMIN).expect(200);
    });
  });

  describe('session tokens', () => {
    it('GET /auth/me answers with the user and memberships, by bearer token and by cookie', async () => {
      const brandId = await fx.brand();
      const member = await fx.member(brandId, ['orders.read', 'stock.read']);
      const byBearer = await request(t.http).get('/auth/me').set(bearer(member)).expect(200);
      const brand = (await request(t.http).get('/admin/brands').set(bearer(fx.admin))).body.items.find(
        (b: { id: number }) => b.id === brandId,
      );
      expect(byBearer.body).toEqual({
        id: member.userId,
        email: expect.any(String),
        isSuperadmin: false,
        memberships: [
          {
            brandId,
            brandName: brand.name,
            brandSlug: brand.slug,
            permissions: ['orders.read', 'stock.read'],
            secondFactorRequired: false,
          },
        ],
        secondFactor: false,
        secondFactorMethods: [],
        // The session's CSRF token, the one login gave: a new tab can make changes with it.
        csrfToken: member.csrfToken,
      });
      const byCookie = await request(t.http).get('/auth/me').set('Cookie', member.cookie).expect(200);
      expect(byCookie.body).toEqual(byBearer.body);
    });

    it('POST /auth/logout answers 204, clears the cookie, and the token then gets 401 Unauthorized', async () => {
      const session = await login(t.http, ADMIN.email, ADMIN.password);
      await request(t.http).get('/auth/me').set(bearer(session)).expect(200);
      const out = await request(t.http).post('/auth/logout').set(bearer(session)).expect(204);
      const cleared = ([] as string[]).concat(out.headers['set-cookie'])[0];
      expect(cleared).toMatch(/^session=;/);
      expect(cleared).toContain('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
      const after = await request(t.http).get('/auth/me').set(bearer(session)).expect(401);
      expect(after.body.error).toBe('Unauthorized');
      const byCookie = await request(t.http).get('/auth/me').set('Cookie', session.cookie).expect(401);
      expect(byCookie.body.error).toBe('Unauthorized');
    });

    it('a JWT-shaped value with a wrong signature gets 401 Invalid token', async () => {
      const session = await login(t.http, ADMIN.email, ADMIN.password);
      const [header, payload, signature] = session.token.split('.');
      const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
      for (const token of [
        `${header}.${payload}.${flipped}`,
        new JwtService({ secret: 'another-secret-entirely-0123456789abcdef' }).sign({ sid: 'x', sub: '1' }),
        'aaaa.bbbb.cccc',
      ]) {
        const response = await request(t.http).get('/auth/me').set('Authorization', `Bearer ${token}`).expect(401);
        expect(response.body.error).toBe('Invalid token');
      }
      const viaCookie = await request(t.http)
        .get('/auth/me')
        .set('Cookie', `session=${header}.${payload}.${flipped}`)
        .expect(401);
      expect(viaCookie.body.error).toBe('Invalid token');
    });

    it('an unsigned (alg none) token gets 401 Invalid token', async () => {
      const session = await login(t.http, ADMIN.email, ADMIN.password);
      const payload = session.token.split('.')[1];
      const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const response = await request(t.http)
        .get('/auth/me')
        .set('Authorization', `Bearer ${none}.${payload}.`)
        .expect(401);
      expect(response.body.error).toBe('Invalid token');
    });

    it('a correctly signed but expired token, or one naming no session, gets 401 Unauthorized', async () => {
      const session = await login(t.http, ADMIN.email, ADMIN.password);
      const jwt = new JwtService({ secret: TEST_SESSION_SECRET });
      const claims = jwt.decode<{ sid: string; sub: string }>(session.token);
      const expired = jwt.sign({ sid: claims.sid, sub: claims.sub, exp: Math.floor(Date.now() / 1000) - 10 });
      const unknownSession = jwt.sign({ sid: '00000000-0000-4000-8000-000000000000', sub: claims.sub });
      for (const token of [expired, unknownSession]) {
        const response = await request(t.http).get('/auth/me').set('Authorization', `Bearer ${token}`).expect(401);
        expect(response.body.error).toBe('Unauthorized');
      }
    });

    it('no header, a non-Bearer scheme, or an opaque unknown value gets 401 Unauthorized', async () => {
      const cases: Array<Record<string, string>> = [
        {},
        { Authorization: 'Basic cm9vdDpyb290' },
        { Authorization: 'Bearer' },
        { Authorization: 'Bearer some-opaque-value' },
        { Authorization: 'Bearer abc def' },
      ];
      for (const headers of cases) {
        const response = await request(t.http).get('/auth/me').set(headers).expect(401);
        expect(response.body.error).toBe('Unauthorized');
      }
    });

    it('matches the Bearer word case-insensitively', async () => {
      const session = await login(t.http, ADMIN.email, ADMIN.password);
      await request(t.http).get('/auth/me').set('Authorization', `bEaReR ${session.token}`).expect(200);
    });

    it('a switched-off account loses its open sessions at once', async () => {
      const user = await fx.user();
      const session = await login(t.http, user.email, user.password);
      await request(t.http).get('/auth/me').set(bearer(session)).expect(200);
      await request(t.http).patch(`/admin/users/${user.id}`).set(bearer(fx.admin)).send({ active: false }).expect(200);
      const response = await request(t.http).get('/auth/me').set(bearer(session)).expect(401);
      expect(response.body.error).toBe('Unauthorized');
    });
  });

  describe('CSRF', () => {
    it('a cookie-only POST without X-CSRF-Token gets 403 Invalid CSRF token; with a wrong one too', async () => {
      const brandId = await fx.brand();
      const member = await fx.member(brandId, ['orders.write']);
      const missing = await request(t.http).post('/probe/orders').set('Cookie', member.cookie).expect(403);
      expect(missing.body.error).toBe('Invalid CSRF token');
      const wrong = await request(t.http)
        .post('/probe/orders')
        .set('Cookie', member.cookie)
        .set('X-CSRF-Token', 'A'.repeat(43))
        .expect(403);
      expect(wrong.body.error).toBe('Invalid CSRF token');
    });

    it('a cookie POST with the session csrfToken passes', async () => {
      const brandId = await fx.brand();
      const member = await fx.member(brandId, ['orders.write']);
      await request(t.http)
        .post('/probe/orders')
        .set('Cookie', member.cookie)
        .set('X-CSRF-Token', member.csrfToken)
        .expect(201);
    });

    it('another session csrfToken does not pass', async () => {
      const brandId = await fx.brand();
      const member = await fx.member(brandId, ['orders.write']);
      const other = await login(t.http, ADMIN.email, ADMIN.password);
      await request(t.http)
        .post('/probe/orders')
        .set('Cookie', member.cookie)
        .set('X-CSRF-Token', other.csrfToken)
        .expect(403);
    });

    it('logout by cookie needs the CSRF token too', async () => {
      const session = await login(t.http, ADMIN.email, ADMIN.password);
      await request(t.http).post('/auth/logout').set('Cookie', session.cookie).expect(403);
      await request(t.http)
        .post('/auth/logout')
        .set('Cookie', session.cookie)
        .set('X-CSRF-Token', session.csrfToken)
        .expect(204);
    });

    it('safe methods by cookie need no CSRF token', async () => {
      const session = await login(t.http, ADMIN.email, ADMIN.password);
      await request(t.http).get('/auth/me').set('Cookie', session.cookie).expect(200);
    });

    it('a request with an Authorization header is never CSRF-checked, even with a cookie beside it', async () => {
      const brandId = await fx.brand();
      const member = await fx.member(brandId, ['orders.write']);
      await request(t.http).post('/probe/orders').set(bearer(member)).set('Cookie', member.cookie).expect(201);
    });
  });
});
