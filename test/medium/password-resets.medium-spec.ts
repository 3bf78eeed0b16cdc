import { createHash, randomUUID } from 'node:crypto';
import type { RequestContext } from '../../src/common/context/request-context';
import { AppError } from '../../src/common/errors/app-error';
import { ErrorText } from '../../src/common/errors/error-texts';
import { IdentityModule } from '../../src/identity/identity.module';
import { PasswordsService, type ResetRequest } from '../../src/identity/passwords.service';
import { UsersService } from '../../src/identity/users.service';
import { NotificationsModule } from '../../src/notifications/notifications.module';
import { OutboxHandlers } from '../../src/notifications/outbox-handlers';
import { OutboxJobs, type ClaimedOutboxJob } from '../../src/outbox/outbox-jobs.repository';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumLogin } from '../support/medium-fixtures';
import { readableText, SmtpSink, type ReceivedMail } from '../support/smtp-sink';

let address = 0;
/** A request from an address of its own: the per-address limit is the e2e suite's to test. */
const anonymous = (): RequestContext => ({
  requestId: 'medium',
  ip: `192.0.2.${++address}`,
  method: 'POST',
  path: '/auth/password-reset',
  principal: null,
  brandId: null,
});

const statusOf = (work: Promise<unknown>) =>
  work.then(
    () => 'done',
    (error: unknown) => {
      if (error instanceof AppError && error.status === 404 && error.message === ErrorText.invalidOrExpiredToken)
        return 'gone';
      throw error;
    },
  );

/** Password resets (contract §19) with their real tables, the outbox and the journal, several requests at once. */
describe('password resets', () => {
  let suite: MediumSuite;
  let passwords: PasswordsService;
  let n = 0;

  beforeAll(async () => {
    suite = await openMedium([IdentityModule]);
    passwords = suite.get(PasswordsService);
  });
  afterAll(() => suite?.close());

  const account = async () => {
    const email = `reset-${++n}-${Date.now()}@example.com`;
    const user = await suite.get(UsersService).create({ email, password: 'medium-password-1' });
    return { ...user, password: 'medium-password-1' };
  };
  const resetsOf = (userId: number) =>
    suite.dataSource.query(`SELECT id, ended_at FROM password_resets WHERE user_id = $1 ORDER BY id`, [userId]);
  /** The reset requests the outbox holds for an e-mail (the worker's is NotificationsModule's, not loaded here). */
  const requestsFor = async (email: string): Promise<ResetRequest[]> =>
    (
      await suite.dataSource.query(
        `SELECT payload FROM outbox WHERE kind = 'mail.password_reset' AND payload->>'email' = $1 ORDER BY id`,
        [email],
      )
    ).map((row: { payload: ResetRequest }) => row.payload);
  /** What the mail job does before it sends, for each of the e-mail's requests at once. */
  const runJobs = async (email: string) =>
    Promise.all((await requestsFor(email)).map((request) => passwords.resetMailFor(request)));
  const tokenOf = (mail: { link: string } | null) => mail!.link.slice(mail!.link.lastIndexOf('/') + 1);

  it('gives an account at most 3 mails an hour, however many ask at once', async () => {
    const user = await account();
    await Promise.all(Array.from({ length: 8 }, () => passwords.requestReset(anonymous(), user.email)));
    expect(await requestsFor(user.email)).toHaveLength(8);
    const mails = await runJobs(user.email);
    expect(mails.filter(Boolean)).toHaveLength(3);
    expect(await resetsOf(user.id)).toHaveLength(3);
    // Each newer request ended the one before: one link at most is live.
    expect((await resetsOf(user.id)).filter((r: { ended_at: Date | null }) => r.ended_at === null)).toHaveLength(1);
  });

  it('records a request for any e-mail alike, and its job mails nobody without an active account', async () => {
    const before = Number((await suite.dataSource.query('SELECT count(*) FROM password_resets'))[0].count);
    await passwords.requestReset(anonymous(), 'Nobody-At-All@example.com');
    expect(await requestsFor('nobody-at-all@example.com')).toHaveLength(1);
    expect(await runJobs('nobody-at-all@example.com')).toEqual([null]);
    expect(Number((await suite.dataSource.query('SELECT count(*) FROM password_resets'))[0].count)).toBe(before);
  });

  it('mints the link when the mail is sent, and a retried mail’s new link kills the first', async () => {
    const user = await account();
    await passwords.requestReset(anonymous(), user.email);
    const [request] = await requestsFor(user.email);
    const first = await passwords.resetMailFor(request);
    const second = await passwords.resetMailFor(request);
    const [{ id }] = await resetsOf(user.id);
    expect(await resetsOf(user.id)).toHaveLength(1);
    expect(first!.link).toMatch(/^http:\/\/localhost:\d+\/dashboard\/#\/reset\/csh_pwr_/);
    expect(first!.to).toBe(user.email);
    const [{ token_hash: stored }] = await suite.dataSource.query(
      'SELECT token_hash FROM password_resets WHERE id = $1',
      [id],
    );
    expect(stored).toEqual(createHash('sha256').update(tokenOf(second)).digest());
    expect(await statusOf(passwords.completeReset(anonymous(), tokenOf(first), 'fresh-medium-phrase'))).toBe('gone');
    expect(await statusOf(passwords.completeReset(anonymous(), tokenOf(second), 'fresh-medium-phrase'))).toBe('done');
  });

  it('lets one of two uses of a token at once through; every session ends', async () => {
    const user = await account();
    await mediumLogin(suite, user.email, user.password);
    await passwords.requestReset(anonymous(), user.email);
    const token = tokenOf((await runJobs(user.email))[0]);
    const outcomes = await Promise.all([
      statusOf(passwords.completeReset(anonymous(), token, 'first-medium-phrase')),
      statusOf(passwords.completeReset(anonymous(), token, 'second-medium-phrase')),
    ]);
    expect(outcomes.sort()).toEqual(['done', 'gone']);
    const [{ ended_at: endedAt }] = await suite.dataSource.query('SELECT ended_at FROM sessions WHERE user_id = $1', [
      user.id,
    ]);
    expect(endedAt).not.toBeNull();
    // Exactly one of the two passwords works now.
    const signIns = await Promise.all(
      ['first-medium-phrase', 'second-medium-phrase'].map((password) =>
        mediumLogin(suite, user.email, password).then(
          () => 1,
          () => 0,
        ),
      ),
    );
    expect(signIns.reduce((a, b) => a + b, 0)).toBe(1);
  });

  it('gives a reset 30 minutes: its token works just under 30 minutes old and not just over', async () => {
    const user = await account();
    await passwords.requestReset(anonymous(), user.email);
    const [request] = await requestsFor(user.email);
    const mail = await passwords.resetMailFor(request);
    const [made] = await suite.dataSource.query(
      `SELECT expires_at, extract(epoch FROM expires_at - created_at)::float8 AS lifetime
         FROM password_resets WHERE user_id = $1`,
      [user.id],
    );
    expect(made.lifetime).toBe(30 * 60);
    // The mail says when the link dies, as the row does.
    expect(mail!.expiresAt).toEqual(made.expires_at);

    /** The reset as if made `seconds` ago, its lifetime as the service gave it. */
    const madeAgo = (seconds: number) =>
      suite.dataSource.query(
        `UPDATE password_resets SET created_at = now() - make_interval(secs => $2),
                expires_at = now() - make_interval(secs => $2) + (expires_at - created_at)
          WHERE user_id = $1`,
        [user.id, seconds],
      );
    // A weak password is refused with the token still live (400), so the probe leaves it unused.
    const probe = () =>
      passwords.completeReset(anonymous(), tokenOf(mail), 'weak').then(
        () => 'done',
        (error: AppError) => `${error.status} ${error.message}`,
      );
    await madeAgo(30 * 60 - 10);
    expect(await probe()).toBe(`400 ${ErrorText.passwordLength}`);
    await madeAgo(30 * 60 + 10);
    expect(await probe()).toBe(`404 ${ErrorText.invalidOrExpiredToken}`);
  });

  it('gives no link for a reset that was replaced, used or has expired', async () => {
    const user = await account();
    await passwords.requestReset(anonymous(), user.email);
    const [request] = await requestsFor(user.email);
    await passwords.resetMailFor(request);
    await suite.dataSource.query(
      `UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [user.id],
    );
    // A retry of the job after its reset expired sends nothing.
    expect(await passwords.resetMailFor(request)).toBeNull();
  });
});

/**
 * The reset mail's outbox job as the worker runs it (OutboxHandlers, the real outbox and SMTP):
 * each attempt mints a new link over the last one, so a worker that lost the job's lease must mint
 * nothing, and each attempt's mail is a message of its own.
 */
describe('the password-reset mail job', () => {
  let suite: MediumSuite;
  let sink: SmtpSink;
  let passwords: PasswordsService;
  let handlers: OutboxHandlers;
  let jobs: OutboxJobs;
  let n = 0;

  beforeAll(async () => {
    sink = new SmtpSink();
    const smtpUrl = await sink.start();
    // No worker of its own: the test claims and runs the jobs as two workers would.
    suite = await openMedium([IdentityModule, NotificationsModule], {
      env: { OUTBOX_WORKER: 'false', WEBHOOK_WORKER: 'false', SMTP_URL: smtpUrl },
    });
    passwords = suite.get(PasswordsService);
    handlers = suite.get(OutboxHandlers);
    jobs = suite.get(OutboxJobs);
  });
  afterAll(async () => {
    await suite?.close();
    await sink?.stop();
  });

  const requested = async () => {
    const email = `mailed-${++n}-${Date.now()}@example.com`;
    await suite.get(UsersService).create({ email, password: 'medium-password-1' });
    await passwords.requestReset(anonymous(), email);
    return email;
  };
  /** The e-mail's reset job, claimed by a worker under a lease of its own (its attempt counted). */
  async function claimFor(email: string): Promise<ClaimedOutboxJob> {
    const claimed = await jobs.claim(randomUUID(), 60, 100);
    const job = claimed.find((j) => (j.payload as unknown as ResetRequest).email === email);
    if (!job) throw new Error(`no reset job of ${email} to claim`);
    return job;
  }
  /** The lease runs out without the job finished (its worker stalled or died): another may claim it. */
  const lapse = (job: ClaimedOutboxJob) =>
    suite.dataSource.query(`UPDATE outbox SET locked_until = now() - interval '1 second' WHERE id = $1`, [job.id]);
  const live = () => new AbortController().signal;
  const tokenIn = (mail: ReceivedMail) => /csh_pwr_[A-Za-z0-9_-]{43}/.exec(readableText(mail))![0];

  it('a worker that lost the lease mints no link: the one the new holder mailed keeps working', async () => {
    const email = await requested();
    const stalled = await claimFor(email);
    await lapse(stalled);
    const holder = await claimFor(email);
    expect(holder.attempts).toBe(stalled.attempts + 1);
    await handlers.run(holder, live());
    const [mail] = sink.to(email);

    // Worker A comes back to the job after its lease was lost (JobLease aborts its signal).
    const lost = new AbortController();
    lost.abort(new Error('the job lease was lost'));
    await expect(handlers.run(stalled, lost.signal)).rejects.toThrow('the job lease was lost');
    expect(sink.to(email)).toHaveLength(1);
    expect(await statusOf(passwords.completeReset(anonymous(), tokenIn(mail), 'fresh-medium-phrase'))).toBe('done');
  });

  it("each attempt's mail is a message of its own: a new link under a new Message-ID", async () => {
    const email = await requested();
    const first = await claimFor(email);
    await handlers.run(first, live());
    // The attempt's completion never committed: its lease runs out and the job is retried.
    await lapse(first);
    const second = await claimFor(email);
    await handlers.run(second, live());

    const mails = sink.to(email);
    expect(mails.map((m) => m.messageId)).toEqual([
      `<outbox-${first.id}-${first.attempts}@commerce-integration-layer>`,
      `<outbox-${first.id}-${second.attempts}@commerce-integration-layer>`,
    ]);
    const [dead, working] = mails.map(tokenIn);
    expect(dead).not.toBe(working);
    expect(await statusOf(passwords.completeReset(anonymous(), dead, 'fresh-medium-phrase'))).toBe('gone');
    expect(await statusOf(passwords.completeReset(anonymous(), working, 'fresh-medium-phrase'))).toBe('done');
  });
});
