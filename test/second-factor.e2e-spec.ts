import request from 'supertest';
import { Fixtures } from './support/fixtures';
import { SoftAuthenticator } from './support/soft-authenticator';
import { closeSuite, openSuite } from './support/suite';
import { withClient, type TestDatabase } from './support/test-database';
import { bearer, type Session, type TestApp } from './support/test-app';
import { base32Bytes, totpCode } from './support/totp-code';

const PUBLIC_URL = 'https://admin.shop.example';
const CHALLENGE = /^csh_lgc_[A-Za-z0-9_-]{43}$/;
const RECOVERY_CODE = /^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/;

/** Contract §19, second half: authenticator apps, recovery codes, passkeys, two-step sign-in, policy, step-up. */
describe('a second factor: authenticator apps, recovery codes, passkeys, the two-step sign-in, the policy', () => {
  let db: TestDatabase;
  let t: TestApp;
  let fx: Fixtures;

  beforeAll(async () => {
    ({ db, t, fx } = await openSuite({ env: { PUBLIC_URL } }));
  });
  afterAll(() => closeSuite({ db, t }));

  const sql = <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
    withClient(db.url, async (client) => (await client.query(text, values)).rows as T[]);
  const post = (path: string, session: Session | null, body: object = {}) => {
    const call = request(t.http).post(path).send(body);
    return session ? call.set(bearer(session)) : call;
  };
  const signIn = async (email: string, password: string) =>
    (await post('/auth/login', null, { email, password }).expect(200)).body as {
      secondFactorRequired?: true;
      challengeToken: string;
      methods: string[];
      token?: string;
    };
  const sessionOf = (body: { token: string; csrfToken: string; user: { id: number } }): Session => ({
    token: body.token,
    csrfToken: body.csrfToken,
    cookie: '',
    userId: body.user.id,
  });
  const passwordSession = async (email: string, password: string) => {
    const response = await post('/auth/login', null, { email, password }).expect(200);
    return sessionOf(response.body);
  };
  const activityTypes = async (session: Session) =>
    (
      (await request(t.http).get('/auth/activity?limit=50').set(bearer(session)).expect(200)).body.items as Array<{
        type: string;
        details: Record<string, unknown> | null;
      }>
    ).map((entry) => entry.type);

  /** An account holding an authenticator app: its key (for codes), its recovery codes, a session. */
  const withAuthenticator = async () => {
    const user = await fx.user();
    const session = await passwordSession(user.email, user.password);
    const enrolment = (await post('/auth/second-factor/totp', session).expect(200)).body as {
      secret: string;
      otpauthUri: string;
    };
    const key = base32Bytes(enrolment.secret);
    const confirmedAt = Date.now();
    const confirmed = await post('/auth/second-factor/totp/confirm', session, { code: totpCode(key, confirmedAt) });
    expect(confirmed.status).toBe(200);
    return { user, session, enrolment, key, confirmedAt, recoveryCodes: confirmed.body.recoveryCodes as string[] };
  };
  /** A code for a time step later than any the account used: the step after `after`'s. */
  const nextCode = (key: Buffer, after: number) => totpCode(key, after + 30_000);

  describe('an authenticator app (TOTP)', () => {
    it('enrols with a secret and an otpauth URI, confirms with a code, and answers ten recovery codes once', async () => {
      const user = await fx.user();
      const session = await passwordSession(user.email, user.password);
      const first = (await post('/auth/second-factor/totp', session).expect(200)).body;
      expect(first.secret).toMatch(/^[A-Z2-7]{32}$/);
      const uri = new URL(first.otpauthUri);
      expect(uri.protocol).toBe('otpauth:');
      expect(decodeURIComponent(uri.pathname)).toContain(user.email);
      expect(Object.fromEntries(uri.searchParams)).toMatchObject({
        secret: first.secret,
        issuer: 'admin.shop.example',
        algorithm: 'SHA1',
        digits: '6',
        period: '30',
      });
      // Asked again before it is confirmed: a new secret, the first one dead.
      const second = (await post('/auth/second-factor/totp', session).expect(200)).body;
      expect(second.secret).not.toBe(first.secret);
      const stale = await post('/auth/second-factor/totp/confirm', session, {
        code: totpCode(base32Bytes(first.secret), Date.now()),
      });
      expect([stale.status, stale.body.error]).toEqual([400, 'Invalid code']);
      expect((await request(t.http).get('/auth/me').set(bearer(session))).body.secondFactor).toBe(false);

      const confirmed = await post('/auth/second-factor/totp/confirm', session, {
        code: totpCode(base32Bytes(second.secret), Date.now()),
      }).expect(200);
      expect(confirmed.body.recoveryCodes).toHaveLength(10);
      for (const code of confirmed.body.recoveryCodes) expect(code).toMatch(RECOVERY_CODE);
      expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);
      expect((await request(t.http).get('/auth/me').set(bearer(session))).body.secondFactor).toBe(true);

      const again = await post('/auth/second-factor/totp', session).expect(409);
      expect(again.body.error).toBe('An authenticator app is set up already: remove it first');
      const reconfirm = await post('/auth/second-factor/totp/confirm', session, { code: '000000' }).expect(409);
      expect(reconfirm.body.error).toBe(
        'No authenticator app is being set up: start with POST /auth/second-factor/totp',
      );
      expect(await activityTypes(session)).toContain('second_factor_enabled');
    });

    it('refuses a wrong code at confirmation', async () => {
      const user = await fx.user();
      const session = await passwordSession(user.email, user.password);
      const { secret } = (await post('/auth/second-factor/totp', session).expect(200)).body;
      const key = base32Bytes(secret);
      const now = Date.now();
      for (const code of [totpCode(key, now + 90_000), totpCode(key, now - 90_000), '12345', 'abcdef']) {
        const response = await post('/auth/second-factor/totp/confirm', session, { code });
        expect([code, response.status, response.body.error]).toEqual([code, 400, 'Invalid code']);
      }
    });

    it('keeps the secret sealed and the recovery codes as fingerprints: a dump holds neither', async () => {
      const { enrolment, recoveryCodes } = await withAuthenticator();
      const dump = await databaseDump(db.url);
      expect(dump).toContain('-- totp_authenticators');
      expect(dump).toMatch(/"secret_sealed": "\\\\x[0-9a-f]+"/);
      expect(dump).not.toContain(enrolment.secret);
      expect(dump.toLowerCase()).not.toContain(enrolment.secret.toLowerCase());
      expect(dump).not.toContain(base32Bytes(enrolment.secret).toString('hex'));
      for (const code of recoveryCodes) {
        expect(dump).not.toContain(code);
        expect(dump).not.toContain(code.replace(/-/g, ''));
      }
    });
  });

  describe('the two-step sign-in', () => {
    it('answers the password with a challenge and the methods held, and no session', async () => {
      const { user } = await withAuthenticator();
      const response = await post('/auth/login', null, { email: user.email, password: user.password }).expect(200);
      expect(response.body).toEqual({
        secondFactorRequired: true,
        challengeToken: expect.stringMatching(CHALLENGE),
        methods: ['totp', 'recovery_code'],
      });
      expect(response.headers['set-cookie']).toBeUndefined();
      // The challenge is no session.
      await request(t.http)
        .get('/auth/me')
        .set(bearer({ token: response.body.challengeToken }))
        .expect(401);
    });

    it('signs in with a code, each code once, one step either side', async () => {
      const { user, key, confirmedAt, session } = await withAuthenticator();
      const step = await signIn(user.email, user.password);
      // The code the confirmation took is spent.
      const spent = await post('/auth/login/second-factor', null, {
        challengeToken: step.challengeToken,
        code: totpCode(key, confirmedAt),
      }).expect(401);
      expect(spent.body.error).toBe('Invalid code');
      const signedIn = await post('/auth/login/second-factor', null, {
        challengeToken: step.challengeToken,
        code: nextCode(key, confirmedAt),
      }).expect(200);
      expect(signedIn.body).toEqual({
        token: expect.any(String),
        csrfToken: expect.any(String),
        user: { id: user.id, email: user.email, isSuperadmin: false },
      });
      expect(String(signedIn.headers['set-cookie'])).toMatch(/^session=/);
      await request(t.http).get('/auth/me').set(bearer(signedIn.body)).expect(200);
      // The challenge worked once.
      const reused = await post('/auth/login/second-factor', null, {
        challengeToken: step.challengeToken,
        code: totpCode(key, confirmedAt + 60_000),
      }).expect(401);
      expect(reused.body.error).toBe('Unauthorized');
      const types = await activityTypes(session);
      expect(types).toEqual(expect.arrayContaining(['user_signed_in', 'user_sign_in_failed']));
    });

    it('signs in with a recovery code, once; the code is journaled as used', async () => {
      const { user, recoveryCodes, session } = await withAuthenticator();
      const first = await signIn(user.email, user.password);
      await post('/auth/login/second-factor', null, {
        challengeToken: first.challengeToken,
        recoveryCode: recoveryCodes[3].toUpperCase().replace(/-/g, ' '),
      }).expect(200);
      const second = await signIn(user.email, user.password);
      const reused = await post('/auth/login/second-factor', null, {
        challengeToken: second.challengeToken,
        recoveryCode: recoveryCodes[3],
      }).expect(401);
      expect(reused.body.error).toBe('Invalid code');
      expect(await activityTypes(session)).toContain('recovery_code_used');
    });

    it('kills the challenge after five wrong answers or its time, and asks for exactly one answer', async () => {
      const { user, key, confirmedAt } = await withAuthenticator();
      const step = await signIn(user.email, user.password);
      for (const answer of [{}, { code: '123456', recoveryCode: 'aaaa-bbbb-cccc-dddd' }]) {
        const response = await post('/auth/login/second-factor', null, {
          challengeToken: step.challengeToken,
          ...answer,
        }).expect(400);
        expect(response.body.error).toBe('Exactly one of code, recoveryCode, passkey must be given');
      }
      for (let wrong = 0; wrong < 5; wrong++) {
        const response = await post('/auth/login/second-factor', null, {
          challengeToken: step.challengeToken,
          recoveryCode: 'aaaa-bbbb-cccc-dddd',
        }).expect(401);
        expect(response.body.error).toBe('Invalid code');
      }
      const dead = await post('/auth/login/second-factor', null, {
        challengeToken: step.challengeToken,
        code: nextCode(key, confirmedAt),
      }).expect(401);
      expect(dead.body.error).toBe('Unauthorized');

      const late = await signIn(user.email, user.password);
      await sql(`UPDATE login_challenges SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [user.id]);
      const expired = await post('/auth/login/second-factor', null, {
        challengeToken: late.challengeToken,
        code: nextCode(key, confirmedAt),
      }).expect(401);
      expect(expired.body.error).toBe('Unauthorized');
      for (const token of ['nope', `csh_lgc_${'A'.repeat(43)}`, `csh_pwr_${'A'.repeat(43)}`]) {
        await post('/auth/login/second-factor', null, { challengeToken: token, code: '123456' }).expect(401);
      }
    });

    it('ends the second steps the old password opened when the password changes', async () => {
      const { user, session, key, confirmedAt } = await withAuthenticator();
      const step = await signIn(user.email, user.password);
      await post('/auth/password', session, {
        currentPassword: user.password,
        newPassword: 'an-entirely-new-phrase',
      }).expect(204);
      const dead = await post('/auth/login/second-factor', null, {
        challengeToken: step.challengeToken,
        code: nextCode(key, confirmedAt),
      }).expect(401);
      expect(dead.body.error).toBe('Unauthorized');
    });

    it('keeps guesses at the factor counted when a password is proved within a session', async () => {
      const { user, session } = await withAuthenticator();
      for (let wrong = 0; wrong < 9; wrong++) await post('/auth/step-up', session, { code: '000000' }).expect(401);
      // The right password (a change, which needs no recent sign-in) gives back only its own slot.
      await post('/auth/password', session, {
        currentPassword: user.password,
        newPassword: 'another-long-phrase-9',
      }).expect(204);
      await post('/auth/step-up', session, { code: '000000' }).expect(401);
      const locked = await post('/auth/step-up', session, { code: '000000' }).expect(429);
      expect(locked.body.error).toBe('Too many login attempts');
    });

    it('counts both steps in the login throttle: a known password buys no unlimited guesses', async () => {
      const { user } = await withAuthenticator();
      let answered429 = false;
      for (let round = 0; round < 4 && !answered429; round++) {
        const login = await post('/auth/login', null, { email: user.email, password: user.password });
        if (login.status === 429) {
          answered429 = true;
          break;
        }
        for (let wrong = 0; wrong < 5; wrong++) {
          const response = await post('/auth/login/second-factor', null, {
            challengeToken: login.body.challengeToken,
            recoveryCode: 'aaaa-bbbb-cccc-dddd',
          });
          if (response.status === 429) {
            expect(response.body.error).toBe('Too many login attempts');
            expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
            answered429 = true;
            break;
          }
          expect(response.status).toBe(401);
        }
      }
      expect(answered429).toBe(true);
      const failures = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM login_failures WHERE email = $1`, [
        user.email,
      ]);
      expect(failures[0].n).toBe(10);
    });
  });

  describe('recovery codes and removal', () => {
    it('regenerates the set (the old dies), and removing the app ends the second step and the codes', async () => {
      const { user, session, recoveryCodes, key, confirmedAt } = await withAuthenticator();
      const fresh = (await post('/auth/second-factor/recovery-codes', session).expect(200)).body.recoveryCodes;
      expect(fresh).toHaveLength(10);
      const step = await signIn(user.email, user.password);
      await post('/auth/login/second-factor', null, {
        challengeToken: step.challengeToken,
        recoveryCode: recoveryCodes[0],
      }).expect(401);
      await post('/auth/login/second-factor', null, {
        challengeToken: step.challengeToken,
        code: nextCode(key, confirmedAt),
      }).expect(200);

      await request(t.http).delete('/auth/second-factor/totp').set(bearer(session)).expect(204);
      await request(t.http).delete('/auth/second-factor/totp').set(bearer(session)).expect(404);
      expect((await signIn(user.email, user.password)).token).toEqual(expect.any(String));
      const none = await post('/auth/second-factor/recovery-codes', session).expect(409);
      expect(none.body.error).toBe('Set up a second factor first');
      expect(await sql(`SELECT 1 FROM recovery_codes WHERE user_id = $1`, [user.id])).toEqual([]);
      expect(await activityTypes(session)).toEqual(
        expect.arrayContaining(['recovery_codes_regenerated', 'second_factor_disabled']),
      );
    });
  });

  describe('passkeys (WebAuthn)', () => {
    const register = async (session: Session, authenticator: SoftAuthenticator, name = 'Laptop') => {
      const options = (await post('/auth/passkeys/options', session).expect(200)).body;
      return post('/auth/passkeys', session, { name, credential: authenticator.create(options) });
    };

    it('registers, lists and removes passkeys, bound to the relying party and its origin', async () => {
      const user = await fx.user();
      const session = await passwordSession(user.email, user.password);
      const options = (await post('/auth/passkeys/options', session).expect(200)).body;
      expect(options.rp).toEqual({ id: 'admin.shop.example', name: expect.any(String) });
      expect(options.publicKey).toBeUndefined();
      expect(options.user.name).toBe(user.email);

      const authenticator = new SoftAuthenticator(PUBLIC_URL);
      const added = await post('/auth/passkeys', session, {
        name: '  Work laptop ',
        credential: authenticator.create(options),
      }).expect(201);
      expect(added.body).toEqual({
        id: expect.any(Number),
        name: 'Work laptop',
        createdAt: expect.any(String),
        lastUsedAt: null,
      });
      const registered = [...authenticator.credentialIds];
      // Its options were for one answer.
      const replay = await post('/auth/passkeys', session, {
        name: 'Again',
        credential: authenticator.create(options),
      }).expect(400);
      expect(replay.body.error).toBe('No passkey request is under way, or it expired: ask for the options first');
      // The next options exclude it.
      const next = (await post('/auth/passkeys/options', session).expect(200)).body;
      expect(next.excludeCredentials.map((entry: { id: string }) => entry.id)).toEqual(registered);

      const phishing = new SoftAuthenticator('https://admin.shop.example.evil.example');
      const refused = await post('/auth/passkeys', session, {
        name: 'Phish',
        credential: phishing.create(next),
      }).expect(400);
      expect(refused.body.error).toBe('The passkey could not be verified');
      await register(session, new SoftAuthenticator(PUBLIC_URL), 'Phone').then((response) =>
        expect(response.status).toBe(201),
      );

      const list = (await request(t.http).get('/auth/passkeys').set(bearer(session)).expect(200)).body.items;
      expect(list.map((entry: { name: string }) => entry.name)).toEqual(['Phone', 'Work laptop']);
      expect((await request(t.http).get('/auth/me').set(bearer(session))).body.secondFactor).toBe(true);

      const other = await fx.user();
      const otherSession = await passwordSession(other.email, other.password);
      await request(t.http).delete(`/auth/passkeys/${added.body.id}`).set(bearer(otherSession)).expect(404);
      await request(t.http).delete(`/auth/passkeys/${added.body.id}`).set(bearer(session)).expect(204);
      await request(t.http).delete(`/auth/passkeys/${added.body.id}`).set(bearer(session)).expect(404);
      expect(await activityTypes(session)).toEqual(expect.arrayContaining(['passkey_added', 'passkey_removed']));
    });

    it('signs in with a passkey as the second step; a replayed or cloned one is refused', async () => {
      const user = await fx.user();
      const session = await passwordSession(user.email, user.password);
      const authenticator = new SoftAuthenticator(PUBLIC_URL);
      expect((await register(session, authenticator)).status).toBe(201);

      const step = await signIn(user.email, user.password);
      expect(step.methods).toEqual(['passkey']);
      const options = (
        await post('/auth/login/passkey-options', null, { challengeToken: step.challengeToken }).expect(200)
      ).body;
      expect(options.rpId).toBe('admin.shop.example');
      expect(options.allowCredentials.map((entry: { id: string }) => entry.id)).toEqual(authenticator.credentialIds);
      const assertion = authenticator.get(options);
      const signedIn = await post('/auth/login/second-factor', null, {
        challengeToken: step.challengeToken,
        passkey: assertion,
      }).expect(200);
      await request(t.http).get('/auth/me').set(bearer(signedIn.body)).expect(200);

      // The same assertion again, on a new challenge: its challenge and its counter are spent.
      const again = await signIn(user.email, user.password);
      await post('/auth/login/passkey-options', null, { challengeToken: again.challengeToken }).expect(200);
      const replayed = await post('/auth/login/second-factor', null, {
        challengeToken: again.challengeToken,
        passkey: assertion,
      }).expect(401);
      expect(replayed.body.error).toBe('Invalid code');
      // A clone that repeats a counter already seen.
      authenticator.setCounter(authenticator.credentialIds[0], 0);
      const cloneOptions = (
        await post('/auth/login/passkey-options', null, { challengeToken: again.challengeToken }).expect(200)
      ).body;
      const cloned = await post('/auth/login/second-factor', null, {
        challengeToken: again.challengeToken,
        passkey: authenticator.get(cloneOptions),
      }).expect(401);
      expect(cloned.body.error).toBe('Invalid code');
      // Without options asked for this challenge, a passkey answer has nothing to answer.
      const fresh = await signIn(user.email, user.password);
      authenticator.setCounter(authenticator.credentialIds[0], 100);
      await post('/auth/login/second-factor', null, {
        challengeToken: fresh.challengeToken,
        passkey: authenticator.get(cloneOptions),
      }).expect(401);
      const last = (await request(t.http).get('/auth/passkeys').set(bearer(session))).body.items[0];
      expect(last.lastUsedAt).toEqual(expect.any(String));
    });

    it('ends the recovery codes with the last factor, so a new factor does not bring them back', async () => {
      const user = await fx.user();
      const session = await passwordSession(user.email, user.password);
      const first = (await register(session, new SoftAuthenticator(PUBLIC_URL))).body as { id: number };
      const { recoveryCodes } = (await post('/auth/second-factor/recovery-codes', session).expect(200)).body;
      await request(t.http).delete(`/auth/passkeys/${first.id}`).set(bearer(session)).expect(204);
      expect(await sql(`SELECT 1 FROM recovery_codes WHERE user_id = $1`, [user.id])).toEqual([]);
      expect(await activityTypes(session)).toEqual(
        expect.arrayContaining(['second_factor_enabled', 'second_factor_disabled']),
      );

      const authenticator = new SoftAuthenticator(PUBLIC_URL);
      expect((await register(session, authenticator)).status).toBe(201);
      const step = await signIn(user.email, user.password);
      expect(step.methods).toEqual(['passkey']);
      await post('/auth/login/second-factor', null, {
        challengeToken: step.challengeToken,
        recoveryCode: recoveryCodes[0],
      }).expect(401);
    });

    it('keeps only the transports WebAuthn knows, whatever the client lists', async () => {
      const user = await fx.user();
      const session = await passwordSession(user.email, user.password);
      for (const transports of ['usb', { usb: true }, [1, null, 'usb', 'usb', 'x'.repeat(5000)]]) {
        const options = (await post('/auth/passkeys/options', session).expect(200)).body;
        const credential = new SoftAuthenticator(PUBLIC_URL).create(options);
        const hostile = { ...credential, response: { ...credential.response, transports } };
        await post('/auth/passkeys', session, { name: 'Odd', credential: hostile }).expect(201);
      }
      const stored = await sql<{ transports: string[] }>(
        `SELECT transports FROM passkeys WHERE user_id = $1 ORDER BY id`,
        [user.id],
      );
      expect(stored.map((row) => row.transports)).toEqual([[], [], ['usb']]);
    });

    it('refuses a malformed credential or assertion with a 400 or a 401, never more', async () => {
      const user = await fx.user();
      const session = await passwordSession(user.email, user.password);
      const authenticator = new SoftAuthenticator(PUBLIC_URL);
      const options = (await post('/auth/passkeys/options', session).expect(200)).body;
      const good = authenticator.create(options);
      for (const credential of [
        {},
        { id: 1, response: 'x' },
        { ...good, response: { ...good.response, attestationObject: 'AAAA' } },
        { ...good, response: { ...good.response, clientDataJSON: '%%%' } },
      ]) {
        await post('/auth/passkeys/options', session).expect(200);
        const response = await post('/auth/passkeys', session, { name: 'Bad', credential });
        expect([response.status, response.body.error]).toEqual([400, 'The passkey could not be verified']);
      }
      await post('/auth/passkeys/options', session).expect(200);
      expect((await post('/auth/passkeys', session, { name: 'Good', credential: good })).status).toBe(400);
      const fresh = (await post('/auth/passkeys/options', session).expect(200)).body;
      await post('/auth/passkeys', session, { name: 'Good', credential: authenticator.create(fresh) }).expect(201);

      const step = await signIn(user.email, user.password);
      const request_ = (await post('/auth/login/passkey-options', null, { challengeToken: step.challengeToken })).body;
      const assertion = authenticator.get(request_);
      for (const passkey of [
        {},
        { id: assertion.id },
        { ...assertion, response: { ...assertion.response, signature: 'AAAA' } },
        { ...assertion, response: 'x' },
      ]) {
        const answer = await post('/auth/login/second-factor', null, { challengeToken: step.challengeToken, passkey });
        expect([answer.status, answer.body.error]).toEqual([401, 'Invalid code']);
      }
    });

    it('answers passkey options only for an account holding one', async () => {
      const { user, key, confirmedAt } = await withAuthenticator();
      const step = await signIn(user.email, user.password);
      const response = await post('/auth/login/passkey-options', null, { challengeToken: step.challengeToken }).expect(
        400,
      );
      expect(response.body.error).toBe('This account has no passkey');
      await post('/auth/login/passkey-options', null, { challengeToken: `csh_lgc_${'B'.repeat(43)}` }).expect(401);
      await post('/auth/login/second-factor', null, {
        challengeToken: step.challengeToken,
        code: nextCode(key, confirmedAt),
      }).expect(200);
    });
  });

  describe('step-up with the second factor', () => {
    const age = (userId: number) =>
      sql(`UPDATE sessions SET authenticated_at = now() - interval '11 minutes' WHERE user_id = $1`, [userId]);

    it('an account with a factor proves itself with it, not with its password', async () => {
      const { user, session, key, confirmedAt } = await withAuthenticator();
      await age(user.id);
      const refused = await post('/auth/passkeys/options', session).expect(403);
      expect(refused.body.error).toBe('Forbidden: recent authentication required');

      const byPassword = await post('/auth/step-up', session, { password: user.password }).expect(400);
      expect(byPassword.body.error).toBe(
        'This account proves itself with its second factor: send code, recoveryCode or passkey',
      );
      const wrong = await post('/auth/step-up', session, { code: '000000' }).expect(401);
      expect(wrong.body.error).toBe('Invalid code');
      const both = await post('/auth/step-up', session, { code: '000000', password: 'x' }).expect(400);
      expect(both.body.error).toBe('Exactly one of password, code, recoveryCode, passkey must be given');
      await post('/auth/step-up', session, { code: nextCode(key, confirmedAt) }).expect(204);
      const options = (await post('/auth/passkeys/options', session).expect(200)).body;
      const authenticator = new SoftAuthenticator(PUBLIC_URL);
      await post('/auth/passkeys', session, { name: 'Key', credential: authenticator.create(options) }).expect(201);

      // And by passkey, with its own options.
      await age(user.id);
      const stepUpOptions = (await post('/auth/step-up/passkey-options', session).expect(200)).body;
      await post('/auth/step-up', session, { passkey: authenticator.get(stepUpOptions) }).expect(204);
      await request(t.http).delete('/auth/second-factor/totp').set(bearer(session)).expect(204);
    });

    it('an account without one steps up by password; a code is refused', async () => {
      const user = await fx.user();
      const session = await passwordSession(user.email, user.password);
      const response = await post('/auth/step-up', session, { code: '123456' }).expect(400);
      expect(response.body.error).toBe('This account has no second factor: send password');
      await post('/auth/step-up', session, { password: user.password }).expect(204);
      await post('/auth/step-up/passkey-options', session).expect(400);
    });
  });

  describe("the brand's policy", () => {
    it('blocks members without a second factor on the brand, never on /auth/* nor for keys', async () => {
      const brandId = await fx.brand();
      const manager = await withAuthenticator();
      await fx.grant(brandId, manager.user.id, ['settings.manage', 'orders.read']);
      const clerk = await fx.user();
      await fx.grant(brandId, clerk.id, ['orders.read']);
      const clerkSession = await passwordSession(clerk.email, clerk.password);
      const key = await request(t.http)
        .post(`/admin/brands/${brandId}/integration-keys`)
        .set(bearer(manager.session))
        .send({ name: 'k', permissions: ['orders.read'] })
        .expect(201);

      const policy = `/admin/brands/${brandId}/security-policy`;
      expect((await request(t.http).get(policy).set(bearer(manager.session)).expect(200)).body).toEqual({
        requireSecondFactor: false,
      });
      // A manager without a factor of their own cannot turn it on.
      const bare = await fx.user();
      await fx.grant(brandId, bare.id, ['settings.manage']);
      const bareSession = await passwordSession(bare.email, bare.password);
      const conflict = await request(t.http).put(policy).set(bearer(bareSession)).send({ requireSecondFactor: true });
      expect([conflict.status, conflict.body.error]).toEqual([409, 'Set up a second factor first']);
      await request(t.http).put(policy).set(bearer(manager.session)).send({ requireSecondFactor: 'yes' }).expect(400);
      await request(t.http)
        .put(policy)
        .set(bearer(manager.session))
        .send({ requireSecondFactor: true })
        .expect(200, { requireSecondFactor: true });

      const orders = `/orders/admin/all?limit=1`;
      const blocked = await request(t.http).get(orders).set(bearer(clerkSession)).set('X-Brand-Id', String(brandId));
      expect([blocked.status, blocked.body.error]).toEqual([403, 'Forbidden: second factor required']);
      await request(t.http).get(policy).set(bearer(bareSession)).expect(403);
      // Their own account stays open, to enrol.
      await request(t.http).get('/auth/me').set(bearer(clerkSession)).expect(200);
      const { secret } = (await post('/auth/second-factor/totp', clerkSession).expect(200)).body;
      const at = Date.now();
      await post('/auth/second-factor/totp/confirm', clerkSession, { code: totpCode(base32Bytes(secret), at) }).expect(
        200,
      );
      // Enrolled, the same session goes on.
      await request(t.http).get(orders).set(bearer(clerkSession)).set('X-Brand-Id', String(brandId)).expect(200);
      await request(t.http).get(orders).set(bearer(manager.session)).set('X-Brand-Id', String(brandId)).expect(200);
      await request(t.http).get(orders).set('Authorization', `Bearer ${key.body.key}`).expect(200);

      const journal = (
        await request(t.http)
          .get(`/admin/security-journal?type=security_policy_changed`)
          .set(bearer(fx.admin))
          .expect(200)
      ).body.items;
      expect(journal[0]).toMatchObject({
        type: 'security_policy_changed',
        brandId,
        details: { requireSecondFactor: { before: false, after: true } },
      });
      const members = (await request(t.http).get(`/admin/brands/${brandId}/members`).set(bearer(manager.session))).body
        .items as Array<{ email: string; secondFactor: boolean }>;
      expect(Object.fromEntries(members.map((member) => [member.email, member.secondFactor]))).toEqual({
        [manager.user.email]: true,
        [clerk.email]: true,
        [bare.email]: false,
      });
    });
  });

  describe('what is never written down', () => {
    it('keeps codes, recovery codes and challenge tokens out of the journal', async () => {
      const { user, key, confirmedAt, recoveryCodes, session } = await withAuthenticator();
      const step = await signIn(user.email, user.password);
      const code = nextCode(key, confirmedAt);
      await post('/auth/login/second-factor', null, {
        challengeToken: step.challengeToken,
        recoveryCode: recoveryCodes[1],
      }).expect(200);
      await post('/auth/step-up', session, { code }).expect(204);
      const all = JSON.stringify(
        (await request(t.http).get('/auth/activity?limit=100').set(bearer(session)).expect(200)).body,
      );
      for (const secret of [code, recoveryCodes[1], step.challengeToken]) expect(all).not.toContain(secret);
    });
  });
});

/**
 * Every row of every table as text (byte columns in hex): what a stolen backup would hold. Read
 * through SQL, as the machine's pg_dump may be older than the embedded server and refuse it.
 */
async function databaseDump(url: string): Promise<string> {
  return withClient(url, async (client) => {
    const tables = await client.query<{ name: string }>(
      `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    );
    const lines: string[] = [];
    for (const { name } of tables.rows) {
      const rows = await client.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM ${name} t`);
      lines.push(`-- ${name}`, ...rows.rows.map((entry) => entry.row));
    }
    return lines.join('\n');
  });
}
