import request from 'supertest';
import { Fixtures, issueKey } from './support/fixtures';
import { readableText, SmtpSink } from './support/smtp-sink';
import { closeSuite, openSuite } from './support/suite';
import { withClient, type TestDatabase } from './support/test-database';
import { ADMIN, bearer, login, type Session, type TestApp } from './support/test-app';

const PUBLIC_URL = 'https://admin.shop.example';
const RESET_LINK = /https:\/\/admin\.shop\.example\/dashboard\/#\/reset\/(csh_pwr_[A-Za-z0-9_-]{43})/;
const STRONG = 'a-long-new-pass-phrase';

/** Contract §19, first half: passwords, resets by mail, sessions, recent authentication, the account's journal. */
describe('account security: passwords, resets, sessions, step-up, activity', () => {
  let db: TestDatabase;
  let t: TestApp;
  let fx: Fixtures;
  const smtp = new SmtpSink();

  beforeAll(async () => {
    const smtpUrl = await smtp.start();
    ({ db, t, fx } = await openSuite({
      env: {
        SMTP_URL: smtpUrl,
        OUTBOX_POLL_MS: '50',
        PUBLIC_URL: `${PUBLIC_URL}/`,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        TRUST_PROXY: 'true',
      },
    }));
  });
  afterAll(async () => {
    await closeSuite({ db, t });
    await smtp.stop();
  });

  const sql = <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
    withClient(db.url, async (client) => (await client.query(text, values)).rows as T[]);
  const me = (session: Session) => request(t.http).get('/auth/me').set(bearer(session));
  const activity = async (session: Session, query = '') =>
    (await request(t.http).get(`/auth/activity${query}`).set(bearer(session)).expect(200)).body.items as Array<{
      id: number;
      type: string;
      actor: { kind: string; id: number };
      brandId: number | null;
      path: string;
      details: Record<string, unknown>;
    }>;
  const resetTokenOf = async (email: string, count: number) => {
    const mails = await smtp.waitFor(email, count);
    const match = RESET_LINK.exec(readableText(mails[count - 1]));
    if (!match) throw new Error(`no reset link in:\n${readableText(mails[count - 1])}`);
    return match[1];
  };

  describe('the password rule (POST /admin/users)', () => {
    const create = (email: string, password: string) =>
      request(t.http).post('/admin/users').set(bearer(fx.admin)).send({ email, password });

    it('asks for 12 to 256 characters', async () => {
      for (const password of ['eleven-char', 'x'.repeat(257)]) {
        const response = await create(`len-${password.length}@example.com`, password).expect(400);
        expect(response.body.error).toBe('Password must have 12 to 256 characters');
        expect(response.body.details).toEqual(['Password must have 12 to 256 characters']);
      }
      await create('len-ok@example.com', 'twelve-chars').expect(201);
    });

    it('refuses a common password and one holding the e-mail’s local part, in any case', async () => {
      expect((await create('common@example.com', '1qaz2wsx3edc').expect(400)).body.error).toBe('Password too weak');
      expect((await create('marta.k@example.com', 'My-MARTA.K-password').expect(400)).body.error).toBe(
        'Password too weak',
      );
    });
  });

  describe('POST /auth/password', () => {
    it('changes the password; the other sessions end at once, this one stays', async () => {
      const user = await fx.user();
      const here = await login(t.http, user.email, user.password);
      const other = await login(t.http, user.email, user.password);
      await request(t.http)
        .post('/auth/password')
        .set(bearer(here))
        .send({ currentPassword: user.password, newPassword: STRONG })
        .expect(204);
      await me(here).expect(200);
      expect((await me(other).expect(401)).body.error).toBe('Unauthorized');
      await request(t.http).post('/auth/login').send({ email: user.email, password: user.password }).expect(401);
      await login(t.http, user.email, STRONG);
      const entries = await activity(here);
      const changed = entries.find((e) => e.type === 'password_changed')!;
      expect(changed).toMatchObject({
        brandId: null,
        actor: { kind: 'user', id: user.id },
        details: { sessionsEnded: 1 },
      });
    });

    it('answers 403 Wrong password, counted as a failed login (then 429)', async () => {
      const user = await fx.user();
      const session = await login(t.http, user.email, user.password);
      for (let i = 0; i < 10; i++) {
        const response = await request(t.http)
          .post('/auth/password')
          .set(bearer(session))
          .send({ currentPassword: 'not-the-password', newPassword: STRONG })
          .expect(403);
        expect(response.body.error).toBe('Wrong password');
      }
      const locked = await request(t.http)
        .post('/auth/password')
        .set(bearer(session))
        .send({ currentPassword: user.password, newPassword: STRONG })
        .expect(429);
      expect(locked.body.error).toBe('Too many login attempts');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      await request(t.http).post('/auth/login').send({ email: user.email, password: user.password }).expect(429);
      await sql('DELETE FROM login_failures WHERE email = $1', [user.email]);
    });

    it('holds the new password to the rule, and changes nothing when it is refused', async () => {
      const user = await fx.user();
      const session = await login(t.http, user.email, user.password);
      const weak = await request(t.http)
        .post('/auth/password')
        .set(bearer(session))
        .send({ currentPassword: user.password, newPassword: 'short' })
        .expect(400);
      expect(weak.body.error).toBe('Password must have 12 to 256 characters');
      await login(t.http, user.email, user.password);
    });

    it('needs X-CSRF-Token with the cookie', async () => {
      const user = await fx.user();
      const session = await login(t.http, user.email, user.password);
      const body = { currentPassword: user.password, newPassword: STRONG };
      await request(t.http).post('/auth/password').set('Cookie', session.cookie).send(body).expect(403);
      await request(t.http)
        .post('/auth/password')
        .set('Cookie', session.cookie)
        .set('X-CSRF-Token', session.csrfToken)
        .send(body)
        .expect(204);
    });
  });

  describe('password reset by mail', () => {
    // Each test asks from an address of its own: the per-address limit has a test of its own.
    let address = 0;
    beforeEach(() => void address++);
    const ask = (email: string, from = `198.51.100.${address}`) =>
      request(t.http).post('/auth/password-reset').set('X-Forwarded-For', from).send({ email });
    const reset = (token: string, newPassword = STRONG) =>
      request(t.http).post(`/auth/password-reset/${token}`).send({ newPassword });

    it('answers 202 {} for any e-mail and mails only an active account, with a PUBLIC_URL link', async () => {
      const user = await fx.user();
      const unknown = await ask('nobody-here@example.com').expect(202);
      const known = await ask(user.email.toUpperCase()).expect(202);
      expect(known.body).toEqual({});
      expect(unknown.body).toEqual(known.body);
      const token = await resetTokenOf(user.email, 1);
      const mail = smtp.to(user.email)[0];
      expect(mail.subject).toBe('Reset your password');
      // The mail holds the link it is sent for and no other secret.
      expect(readableText(mail).match(/csh_[a-z]+_[A-Za-z0-9_-]+/g)).toEqual(expect.arrayContaining([token]));
      expect(new Set(readableText(mail).match(/csh_[a-z]+_[A-Za-z0-9_-]+/g))).toEqual(new Set([token]));
      expect(smtp.to('nobody-here@example.com')).toEqual([]);
    });

    it('sets the password once, ends every session, and the token dies', async () => {
      const user = await fx.user();
      const before = await login(t.http, user.email, user.password);
      await ask(user.email).expect(202);
      const token = await resetTokenOf(user.email, 1);
      await reset(token).expect(204);
      expect((await me(before).expect(401)).body.error).toBe('Unauthorized');
      const again = await reset(token, 'another-strong-one').expect(404);
      expect(again.body.error).toBe('Invalid or expired token');
      const after = await login(t.http, user.email, STRONG);
      const types = (await activity(after)).map((e) => e.type);
      expect(types).toEqual(expect.arrayContaining(['password_reset_requested', 'password_reset', 'user_signed_in']));
      const entry = (await activity(after)).find((e) => e.type === 'password_reset')!;
      expect(entry.path).toBe('/auth/password-reset/[redacted]');
      expect(JSON.stringify(await activity(after))).not.toContain(token);
    });

    it('refuses a weak new password and keeps the token live', async () => {
      const user = await fx.user();
      await ask(user.email).expect(202);
      const token = await resetTokenOf(user.email, 1);
      expect((await reset(token, '123qweasdzxc').expect(400)).body.error).toBe('Password too weak');
      await reset(token).expect(204);
    });

    it('a newer request replaces the older one; expired, malformed and unknown tokens are 404', async () => {
      const user = await fx.user();
      await ask(user.email).expect(202);
      const first = await resetTokenOf(user.email, 1);
      await ask(user.email).expect(202);
      const second = await resetTokenOf(user.email, 2);
      expect((await reset(first).expect(404)).body.error).toBe('Invalid or expired token');
      await sql(`UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [user.id]);
      expect((await reset(second).expect(404)).body.error).toBe('Invalid or expired token');
      for (const token of ['nope', `csh_pwr_${'A'.repeat(43)}`, `csh_inv_${'A'.repeat(43)}`, first.slice(0, -1)]) {
        expect((await reset(token).expect(404)).body.error).toBe('Invalid or expired token');
      }
    });

    it('mails an account at most 3 times an hour, answering 202 all the same', async () => {
      const user = await fx.user();
      for (let i = 1; i <= 3; i++) {
        await ask(user.email).expect(202);
        await smtp.waitFor(user.email, i);
      }
      await ask(user.email).expect(202);
      await ask(user.email).expect(202);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(smtp.to(user.email)).toHaveLength(3);
      // The third link still works: a capped request replaces nothing.
      await reset(await resetTokenOf(user.email, 3)).expect(204);
    });

    it('answers 429 with Retry-After past 10 requests from one address in 15 minutes', async () => {
      for (let i = 0; i < 10; i++) await ask(`spray-${i}@example.com`, '203.0.113.77').expect(202);
      const refused = await ask('spray-10@example.com', '203.0.113.77').expect(429);
      expect(refused.body.error).toBe('Too many requests');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      await ask('spray-10@example.com', '203.0.113.78').expect(202);
    });

    it('does not mail a switched-off account', async () => {
      const user = await fx.user();
      await request(t.http).patch(`/admin/users/${user.id}`).set(bearer(fx.admin)).send({ active: false }).expect(200);
      await ask(user.email).expect(202);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(smtp.to(user.email)).toEqual([]);
    });
  });

  describe('sessions', () => {
    it('lists the live sessions, newest first, with address, agent and which is current', async () => {
      const user = await fx.user();
      const a = await login(t.http, user.email, user.password);
      const b = (
        await request(t.http)
          .post('/auth/login')
          .set('User-Agent', 'TestBrowser/1.0')
          .send({ email: user.email, password: user.password })
          .expect(200)
      ).body;
      const response = await request(t.http).get('/auth/sessions').set(bearer(a)).expect(200);
      expect(response.body.items).toHaveLength(2);
      const [newest, older] = response.body.items;
      expect(newest).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        createdAt: expect.any(String),
        lastSeenAt: expect.any(String),
        ip: expect.any(String),
        userAgent: 'TestBrowser/1.0',
        current: false,
      });
      expect(older.current).toBe(true);
      expect(JSON.stringify(response.body)).not.toContain(a.token);
      expect(JSON.stringify(response.body)).not.toContain(b.token);
    });

    it('ends one session (its token gets 401); another account’s or none is 404', async () => {
      const user = await fx.user();
      const a = await login(t.http, user.email, user.password);
      const b = await login(t.http, user.email, user.password);
      const stranger = await fx.user();
      const theirs = await login(t.http, stranger.email, stranger.password);
      const ids = (await request(t.http).get('/auth/sessions').set(bearer(a)).expect(200)).body.items as Array<{
        id: string;
        current: boolean;
      }>;
      const bId = ids.find((s) => !s.current)!.id;
      const theirId = (await request(t.http).get('/auth/sessions').set(bearer(theirs)).expect(200)).body.items[0].id;
      expect((await request(t.http).delete(`/auth/sessions/${theirId}`).set(bearer(a)).expect(404)).body.error).toBe(
        'Not found',
      );
      await me(theirs).expect(200);
      await request(t.http).delete('/auth/sessions/not-a-uuid').set(bearer(a)).expect(404);
      await request(t.http).delete(`/auth/sessions/${bId}`).set(bearer(a)).expect(204);
      await me(b).expect(401);
      await request(t.http).delete(`/auth/sessions/${bId}`).set(bearer(a)).expect(404);
      const ended = (await activity(a)).find((e) => e.type === 'session_ended')!;
      expect(ended.details).toEqual({ sessionId: bId, by: 'ended' });
    });

    it('ends the others with POST /auth/sessions/end-others', async () => {
      const user = await fx.user();
      const [a, b, c] = [
        await login(t.http, user.email, user.password),
        await login(t.http, user.email, user.password),
        await login(t.http, user.email, user.password),
      ];
      await request(t.http).post('/auth/sessions/end-others').set(bearer(a)).expect(204);
      await me(a).expect(200);
      await me(b).expect(401);
      await me(c).expect(401);
      const items = (await request(t.http).get('/auth/sessions').set(bearer(a)).expect(200)).body.items;
      expect(items).toHaveLength(1);
    });

    it('moves lastSeenAt on when a session is used a minute after its last use', async () => {
      const user = await fx.user();
      const session = await login(t.http, user.email, user.password);
      await sql(`UPDATE sessions SET last_seen_at = now() - interval '5 minutes' WHERE user_id = $1`, [user.id]);
      const stale = (await request(t.http).get('/auth/sessions').set(bearer(session)).expect(200)).body.items[0];
      const deadline = Date.now() + 5000;
      let seen = stale.lastSeenAt;
      while (seen === stale.lastSeenAt && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen = (await request(t.http).get('/auth/sessions').set(bearer(session)).expect(200)).body.items[0].lastSeenAt;
      }
      expect(Date.now() - Date.parse(seen)).toBeLessThan(60_000);
    });
  });

  describe('recent authentication and POST /auth/step-up', () => {
    const ageSession = (userId: number) =>
      sql(`UPDATE sessions SET authenticated_at = now() - interval '11 minutes' WHERE user_id = $1`, [userId]);

    it('refuses the sensitive actions to a session that proved its account too long ago, until it steps up', async () => {
      const brandId = await fx.brand();
      const user = await fx.user();
      await fx.grant(brandId, user.id, ['settings.manage']);
      const session = await login(t.http, user.email, user.password);
      const key = await issueKey(fx, brandId, { permissions: ['orders.read'] }, session);
      const endpoint = await request(t.http)
        .post(`/admin/brands/${brandId}/webhook-endpoints`)
        .set(bearer(session))
        .send({ url: 'http://127.0.0.1:9/hook', eventTypes: ['order.created'] })
        .expect(201);
      await ageSession(user.id);
      const sensitive = [
        request(t.http)
          .post(`/admin/brands/${brandId}/integration-keys`)
          .send({ name: 'k', permissions: ['orders.read'] }),
        request(t.http).post(`/admin/brands/${brandId}/integration-keys/${key.id}/roll`).send({}),
        request(t.http).get(`/admin/brands/${brandId}/webhook-endpoints/${endpoint.body.id}/secret`),
        request(t.http).post(`/admin/brands/${brandId}/webhook-endpoints/${endpoint.body.id}/rotate-secret`).send({}),
        request(t.http).get(`/admin/brands/${brandId}/personal-data/export?email=a@b.example`),
        request(t.http).post(`/admin/brands/${brandId}/personal-data/erasures`).send({ email: 'a@b.example' }),
      ];
      for (const call of sensitive) {
        const response = await call.set(bearer(session)).expect(403);
        expect(response.body.error).toBe('Forbidden: recent authentication required');
      }
      // What is not sensitive goes on.
      await request(t.http).get(`/admin/brands/${brandId}/integration-keys`).set(bearer(session)).expect(200);

      const wrong = await request(t.http)
        .post('/auth/step-up')
        .set(bearer(session))
        .send({ password: 'nope' })
        .expect(403);
      expect(wrong.body.error).toBe('Wrong password');
      await request(t.http).post('/auth/step-up').set(bearer(session)).send({ password: user.password }).expect(204);
      await request(t.http)
        .post(`/admin/brands/${brandId}/integration-keys`)
        .set(bearer(session))
        .send({ name: 'k', permissions: ['orders.read'] })
        .expect(201);
      await request(t.http)
        .get(`/admin/brands/${brandId}/webhook-endpoints/${endpoint.body.id}/secret`)
        .set(bearer(session))
        .expect(200);
    });

    it('answers a missing permission first, and holds superadministrators to it too', async () => {
      const brandId = await fx.brand();
      const reader = await fx.member(brandId, ['orders.read']);
      await ageSession(reader.userId);
      const missing = await request(t.http)
        .post(`/admin/brands/${brandId}/integration-keys`)
        .set(bearer(reader))
        .send({ name: 'k', permissions: ['orders.read'] })
        .expect(403);
      expect(missing.body.error).toBe('Forbidden: Missing permission settings.manage');

      const admin = await login(t.http, ADMIN.email, ADMIN.password);
      await sql(
        `UPDATE sessions SET authenticated_at = now() - interval '11 minutes' WHERE id = (
                   SELECT id FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1)`,
        [admin.userId],
      );
      const refused = await request(t.http)
        .post(`/admin/brands/${brandId}/integration-keys`)
        .set(bearer(admin))
        .send({ name: 'k', permissions: ['orders.read'] })
        .expect(403);
      expect(refused.body.error).toBe('Forbidden: recent authentication required');
    });

    it('does not apply to integration keys', async () => {
      const brandId = await fx.brand();
      const key = await issueKey(fx, brandId, { permissions: ['orders.read'] });
      await request(t.http).get('/orders/admin/all').set(key.headers).expect(200);
    });
  });

  describe('GET /auth/activity and the platform journal', () => {
    it('shows the account its own entries only, newest first, paged with before', async () => {
      const user = await fx.user();
      const other = await fx.user();
      await request(t.http).post('/auth/login').send({ email: user.email, password: 'wrong-password' }).expect(401);
      await request(t.http).post('/auth/login').send({ email: 'no-account@example.com', password: 'x' }).expect(401);
      const session = await login(t.http, user.email, user.password);
      await login(t.http, other.email, other.password);
      const entries = await activity(session);
      expect(entries.map((e) => e.type)).toEqual(['user_signed_in', 'user_sign_in_failed']);
      expect(entries.every((e) => e.actor.id === user.id && e.brandId === null)).toBe(true);
      const page = await activity(session, `?limit=1&before=${entries[0].id}`);
      expect(page.map((e) => e.type)).toEqual(['user_sign_in_failed']);

      const platform = (
        await request(t.http).get('/admin/security-journal?type=user_sign_in_failed').set(bearer(fx.admin)).expect(200)
      ).body.items as Array<{ actor: { id: number } }>;
      expect(platform.some((e) => e.actor.id === user.id)).toBe(true);
      // A failure against no account is journaled nowhere.
      const all = JSON.stringify((await request(t.http).get('/admin/security-journal').set(bearer(fx.admin))).body);
      expect(all).not.toContain('no-account@example.com');
    });

    it('keeps no password, token or code in any entry', async () => {
      const rows = await sql<{ text: string }>(`SELECT row_to_json(j)::text AS text FROM security_journal j`);
      const text = rows.map((r) => r.text).join('\n');
      expect(text).not.toMatch(/csh_(pwr|inv)_[A-Za-z0-9_-]{10}/);
      expect(text).not.toContain(STRONG);
      expect(text).not.toContain('user-password-1');
      expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    });
  });
});
