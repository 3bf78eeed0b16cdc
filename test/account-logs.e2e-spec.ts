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

const TOKEN = /csh_(pwr|inv)_[A-Za-z0-9_-]{43}/;

/**
 * The service's own log lines, at info, while accounts do what leaves secrets in flight (contract
 * §19): passwords set, changed and wrong, a reset token mailed and used. None of them is logged;
 * the paths that carry a token are logged with it redacted.
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

  it('logs no password, token or reset link', async () => {
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

    await stopService(service);
    const output = service.output();
    expect(output).toContain('"path":"/auth/password-reset/[redacted]"');
    for (const secret of [SERVICE_ADMIN.password, first, second, third, 'wrong-guess-phrase', token, admin, clerk])
      expect(output).not.toContain(secret);
    expect(output).not.toMatch(TOKEN);
    expect(output).not.toContain(email);
  });
});
