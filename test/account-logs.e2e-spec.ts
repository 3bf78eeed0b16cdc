import {
  callService,
  SERVICE_ADMIN,
  serviceEnv,
  spawnService,
  stopService,
  waitForHealth,
  type ServiceProcess,
} from './support/service-process';
import { readableText, SmtpSink } from './support/smtp-sink';
import { createTestDatabase, type TestDatabase } from './support/test-database';
import { base32Bytes, totpCode } from './support/totp-code';

const TOKEN = /csh_(pwr|inv|lgc)_[A-Za-z0-9_-]{43}/;

/**
 * A six-digit code as a value of its own: log lines are full of digits (times, durations, ids), so
 * a code counts as logged only where nothing alphanumeric runs on either side of it.
 */
const standalone = (code: string) => new RegExp(`(?<![0-9A-Za-z])${code}(?![0-9A-Za-z])`);

/**
 * The service's own log lines, at info, while accounts do what leaves secrets in flight (contract
 * §19): passwords set, changed and wrong, a reset token mailed and used, an authenticator app
 * enrolled, a sign-in in two steps (a wrong code, a right one, a recovery code), a step-up. None of
 * them is logged; the paths that carry a token are logged with it redacted.
 */
describe('account secrets never reach a log line', () => {
  let db: TestDatabase;
  let service: ServiceProcess;
  const smtp = new SmtpSink();

  beforeAll(async () => {
    db = await createTestDatabase();
    const smtpUrl = await smtp.start();
    const env = await serviceEnv(db.url, { LOG_LEVEL: 'info', SMTP_URL: smtpUrl, OUTBOX_POLL_MS: '50' });
    service = spawnService({ ...env, PUBLIC_URL: `http://localhost:${env.PORT}` });
    await waitForHealth(service);
  });
  afterAll(async () => {
    if (service) await stopService(service);
    await smtp.stop();
    await db?.drop();
  });

  it('logs no password, token, reset link or second-factor secret', async () => {
    const admin = (await callService(service, 'POST', '/auth/login', SERVICE_ADMIN)).body.token as string;
    const as = (token: string) => ({ Authorization: `Bearer ${token}` });
    const email = 'clerk@shop.example';
    const first = 'first-secret-phrase';
    const second = 'second-secret-phrase';
    const third = 'third-secret-phrase';
    expect((await callService(service, 'POST', '/admin/users', { email, password: first }, as(admin))).status).toBe(
      201,
    );
    const clerk = (await callService(service, 'POST', '/auth/login', { email, password: first })).body.token as string;
    await callService(service, 'POST', '/auth/login', { email, password: 'wrong-guess-phrase' });
    await callService(service, 'POST', '/auth/step-up', { password: 'wrong-guess-phrase' }, as(clerk));
    const changed = await callService(
      service,
      'POST',
      '/auth/password',
      { currentPassword: first, newPassword: second },
      as(clerk),
    );
    expect(changed.status).toBe(204);
    expect((await callService(service, 'POST', '/auth/password-reset', { email })).status).toBe(202);
    const [mail] = await smtp.waitFor(email);
    const token = TOKEN.exec(readableText(mail))![0];
    const reset = await callService(service, 'POST', `/auth/password-reset/${token}`, { newPassword: third });
    expect(reset.status).toBe(204);
    expect((await callService(service, 'POST', `/auth/password-reset/${token}`, { newPassword: third })).status).toBe(
      404,
    );

    // The second factor: an authenticator app enrolled and confirmed on a fresh sign-in.
    const enrolling = (await callService(service, 'POST', '/auth/login', { email, password: third })).body
      .token as string;
    const enrolment = await callService(service, 'POST', '/auth/second-factor/totp', {}, as(enrolling));
    expect(enrolment.status).toBe(200);
    const { secret, otpauthUri } = enrolment.body as { secret: string; otpauthUri: string };
    const key = base32Bytes(secret);
    const now = Date.now();
    // Each code is used once (its time step), so each step gets the next one's.
    const [confirmCode, signInCode, wrongCode] = [now, now + 30_000, now + 300_000].map((at) => totpCode(key, at));
    const confirmed = await callService(
      service,
      'POST',
      '/auth/second-factor/totp/confirm',
      { code: confirmCode },
      as(enrolling),
    );
    expect(confirmed.status).toBe(200);
    const recoveryCodes = confirmed.body.recoveryCodes as string[];

    // A sign-in in two steps: the password opens a challenge, a wrong code is refused, the right one signs in.
    const challengeOf = async () => {
      const step = await callService(service, 'POST', '/auth/login', { email, password: third });
      expect(step.body).toMatchObject({ secondFactorRequired: true });
      return step.body.challengeToken as string;
    };
    const secondStep = (challengeToken: string, answer: { code?: string; recoveryCode?: string }) =>
      callService(service, 'POST', '/auth/login/second-factor', { challengeToken, ...answer });
    const firstChallenge = await challengeOf();
    expect((await secondStep(firstChallenge, { code: wrongCode })).status).toBe(401);
    const twoSteps = await secondStep(firstChallenge, { code: signInCode });
    expect(twoSteps.status).toBe(200);
    const signedIn = twoSteps.body.token as string;
    // A step-up with a recovery code, a sign-in with another, a wrong one, and a new set.
    expect(
      (await callService(service, 'POST', '/auth/step-up', { recoveryCode: recoveryCodes[0] }, as(signedIn))).status,
    ).toBe(204);
    const secondChallenge = await challengeOf();
    const wrongRecoveryCode = 'aaaa-bbbb-cccc-dddd';
    expect((await secondStep(secondChallenge, { recoveryCode: wrongRecoveryCode })).status).toBe(401);
    const byRecovery = await secondStep(secondChallenge, { recoveryCode: recoveryCodes[1] });
    expect(byRecovery.status).toBe(200);
    const regenerated = await callService(service, 'POST', '/auth/second-factor/recovery-codes', {}, as(signedIn));
    expect(regenerated.status).toBe(200);
    const newCodes = regenerated.body.recoveryCodes as string[];
    expect(newCodes).toHaveLength(10);

    await stopService(service);
    const output = service.output();
    expect(output).toContain('"path":"/auth/password-reset/[redacted]"');
    // The second factor's routes were logged: the check below looks where they were.
    expect(output).toContain('/auth/login/second-factor');
    expect(output).toContain('/auth/second-factor/totp/confirm');
    for (const secret of [SERVICE_ADMIN.password, first, second, third, 'wrong-guess-phrase', token, admin, clerk])
      expect(output).not.toContain(secret);
    const factorSecrets = [
      secret,
      secret.toLowerCase(),
      otpauthUri,
      firstChallenge,
      secondChallenge,
      enrolling,
      signedIn,
      byRecovery.body.token as string,
      ...[...recoveryCodes, ...newCodes, wrongRecoveryCode].flatMap((code) => [code, code.replace(/-/g, '')]),
    ];
    for (const held of factorSecrets) expect(output).not.toContain(held);
    for (const code of [confirmCode, signInCode, wrongCode]) expect(output).not.toMatch(standalone(code));
    expect(output).not.toMatch(TOKEN);
    expect(output).not.toContain('csh_lgc_');
    expect(output).not.toContain(email);
  });
});
