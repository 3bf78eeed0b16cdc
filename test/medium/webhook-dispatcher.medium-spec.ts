import { Client } from 'pg';
import type { BrandContext } from '../../src/common/context/request-context';
import { AppError } from '../../src/common/errors/app-error';
import { IdentityModule } from '../../src/identity/identity.module';
import { WebhookDeliveriesRepository } from '../../src/webhooks/webhook-deliveries.repository';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher';
import { WebhookEndpointsService } from '../../src/webhooks/webhook-endpoints.service';
import { WebhooksModule } from '../../src/webhooks/webhooks.module';
import { eventually } from '../support/eventually';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumBrand, superadminContext } from '../support/medium-fixtures';
import { WebhookReceiver } from '../support/webhook-receiver';

const SECRETS_KEY = 'ab'.repeat(32);
/** Instances whose worker the tests drive by hand (runOnce, drain), as the e2e suite's app is. */
const BY_HAND = { WEBHOOK_WORKER: 'false', SECRETS_ENCRYPTION_KEY: SECRETS_KEY };

/** What a promise was refused with, as the error filter would answer it. */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; error: string }> {
  const error = await promise.then(
    () => new Error('it was not refused'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof AppError)) throw error;
  return { status: error.status, error: error.message };
}

/**
 * The delivery worker (contract §10) of instances configured otherwise than the one that wrote the
 * endpoints: one that may not reach private addresses, one with another SECRETS_ENCRYPTION_KEY, one
 * with a small WEBHOOK_CONCURRENCY, and one that prunes at its first pass; all on one database.
 */
describe('the webhook dispatcher of differently configured instances', () => {
  let base: MediumSuite;
  let receiver: WebhookReceiver;
  let ctx: BrandContext;
  const opened: MediumSuite[] = [];

  const endpoints = () => base.get(WebhookEndpointsService);
  /** Another instance on the same database. */
  async function instance(env: Record<string, string>): Promise<MediumSuite> {
    const suite = await openMedium([IdentityModule, WebhooksModule], { env, db: base.db });
    opened.push(suite);
    return suite;
  }
  async function deliverDue(on: MediumSuite = base): Promise<void> {
    const dispatcher = on.get(WebhookDispatcher);
    await dispatcher.runOnce();
    await dispatcher.drain();
  }
  const makeDue = () =>
    base.dataSource.query(`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE status = 'pending'`);
  const endpoint = (path: string, url = receiver.url(path)) =>
    endpoints().create(ctx, { url, eventTypes: ['webhook.test'] });
  const attemptsOf = async (endpointId: number) =>
    (await endpoints().deliveriesOf(ctx, endpointId, { limit: 50 })).items;
  const count = async (sql: string, params: unknown[] = []) =>
    (await base.dataSource.query<Array<{ n: number }>>(sql, params))[0].n;

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    base = await openMedium([IdentityModule, WebhooksModule], {
      env: {
        ...BY_HAND,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_TIMEOUT_MS: '1500',
        WEBHOOK_RETRY_SCHEDULE: '1,1',
      },
    });
    ctx = await superadminContext(base, await mediumBrand(base));
    // Its first pass prunes: the pruning test's old rows must come after it.
    await deliverDue();
  });
  afterAll(async () => {
    for (const suite of opened.reverse()) await suite.close();
    await base?.close();
    await receiver?.stop();
  });

  it('refuses private addresses at creation and at delivery unless allowed', async () => {
    const strict = await instance(BY_HAND);
    const strictEndpoints = strict.get(WebhookEndpointsService);
    for (const host of [
      '127.0.0.1',
      'localhost',
      '10.0.0.7',
      '172.16.5.4',
      '192.168.0.10',
      '169.254.169.254',
      '0.0.0.0',
      '[::1]',
      '[fe80::1]',
      '[fd00::1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:a9fe:a9fe]',
      // IPv4 inside IPv6 (NAT64, 6to4, Teredo, compatible) and the other special-purpose ranges
      '[64:ff9b::7f00:1]',
      '[64:ff9b::a9fe:a9fe]',
      '[2002:7f00:1::]',
      '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
      '[::127.0.0.1]',
      '[2001:db8::1]',
      '192.0.2.10',
    ]) {
      const refused = await refusal(
        strictEndpoints.create(ctx, { url: `http://${host}:8080/hook`, eventTypes: ['*'] }),
      );
      expect({ host, ...refused }).toEqual({ host, status: 400, error: expect.stringMatching(/^url is refused: /) });
    }
    // Created while private addresses were allowed, sent by an instance where they are not.
    const created = await endpoint('/strict');
    await endpoints().sendTest(ctx, created.id);
    await deliverDue(strict);
    expect(receiver.at('/strict')).toEqual([]);
    expect((await attemptsOf(created.id))[0].attempts[0].error).toMatch(/may not reach/);
    const port = new URL(receiver.url('/')).port;
    for (const host of ['[64:ff9b::7f00:1]', '[2002:7f00:1::]']) {
      const clothed = await endpoint('/clothed', `http://${host}:${port}/clothed`);
      await endpoints().sendTest(ctx, clothed.id);
      await deliverDue(strict);
      const [delivery] = await attemptsOf(clothed.id);
      expect({ host, error: delivery.attempts[0].error }).toEqual({
        host,
        error: expect.stringMatching(/may not reach/),
      });
    }
    expect(receiver.at('/clothed')).toEqual([]);
  });

  it('records an attempt it cannot sign (an instance with another SECRETS_ENCRYPTION_KEY) instead of losing it', async () => {
    // Without SECRETS_ENCRYPTION_KEY it generates a key of its own into its data folder.
    const other = await instance({ WEBHOOK_WORKER: 'false', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    const created = await endpoint('/other-key');
    await endpoints().sendTest(ctx, created.id);
    await deliverDue(other);
    expect(receiver.at('/other-key')).toEqual([]);
    expect((await attemptsOf(created.id))[0]).toMatchObject({
      status: 'pending',
      attempts: [{ responseStatus: null, error: expect.stringMatching(/SECRETS_ENCRYPTION_KEY/) }],
    });
    await makeDue();
    await deliverDue();
    expect(receiver.at('/other-key')).toHaveLength(1);
  });

  it("an endpoint's share counts the sends under way, not the answers whose outcome is still being written", async () => {
    const target = await endpoint('/share');
    await endpoints().sendTest(ctx, target.id);
    await endpoints().sendTest(ctx, target.id);
    const deliveries = base.get(WebhookDeliveriesRepository);
    const ofTarget = (rows: Array<{ id: string; endpoint_id: number }>) =>
      rows.filter((row) => row.endpoint_id === target.id).map((row) => String(row.id));
    const tokens = ['1', '2', '3'].map((n) => `00000000-0000-4000-8000-00000000000${n}`);
    try {
      const first = ofTarget(await deliveries.claim(tokens[0], 100, 1, 60));
      expect(first).toHaveLength(1);
      // Its receiver has not answered: the endpoint is at its share of one.
      expect(ofTarget(await deliveries.claim(tokens[1], 100, 1, 60))).toEqual([]);
      // It has answered and its outcome is being written: the next send may start.
      const next = ofTarget(await deliveries.claim(tokens[2], 100, 1, 60, first));
      expect(next).toHaveLength(1);
      expect(next).not.toEqual(first);
    } finally {
      await base.dataSource.query(
        `UPDATE webhook_deliveries SET lock_token = NULL, locked_until = NULL WHERE lock_token = ANY($1)`,
        [tokens],
      );
    }
  });

  it('sends beside unwritten outcomes up to twice WEBHOOK_CONCURRENCY, and no further', async () => {
    const target = await endpoint('/overlap');
    for (let i = 0; i < 6; i++) await endpoints().sendTest(ctx, target.id);
    // Only this endpoint's deliveries are due, so the counts below are all its own.
    await base.dataSource.query(
      `UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 day'
        WHERE status = 'pending' AND endpoint_id <> $1`,
      [target.id],
    );
    const fresh = await instance({ ...BY_HAND, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_CONCURRENCY: '2' });
    // Outcomes cannot be written while the blocker holds an advisory lock: every update that settles a claim waits for it.
    await base.dataSource.query(`
      CREATE FUNCTION test_hold_outcomes() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_advisory_xact_lock_shared(4242); RETURN NEW; END $$;
      CREATE TRIGGER test_hold_outcomes BEFORE UPDATE ON webhook_deliveries FOR EACH ROW
        WHEN (OLD.lock_token IS NOT NULL AND NEW.lock_token IS NULL) EXECUTE FUNCTION test_hold_outcomes();`);
    const blocker = new Client({ connectionString: base.db.url });
    await blocker.connect();
    try {
      await blocker.query('SELECT pg_advisory_lock(4242)');
      const dispatcher = fresh.get(WebhookDispatcher);
      let started = await dispatcher.runOnce();
      expect(started).toBe(2);
      // Each answer frees its slot, up to four sends whose outcome waits.
      const deadline = Date.now() + 5_000;
      while (started < 4 && Date.now() < deadline) {
        started += await dispatcher.runOnce();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(started).toBe(4);
      await eventually(() => expect(receiver.at('/overlap')).toHaveLength(4));
      for (let i = 0; i < 10; i++) {
        started += await dispatcher.runOnce();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(started).toBe(4);
      expect(receiver.at('/overlap')).toHaveLength(4);

      await blocker.query('SELECT pg_advisory_unlock(4242)');
      await dispatcher.drain();
      await deliverDue(fresh);
      await deliverDue(fresh);
      expect(new Set(receiver.at('/overlap').map((m) => m.headers['webhook-id'])).size).toBe(6);
      expect(receiver.at('/overlap')).toHaveLength(6);
    } finally {
      await blocker.end();
      await base.dataSource.query(
        'DROP TRIGGER test_hold_outcomes ON webhook_deliveries; DROP FUNCTION test_hold_outcomes()',
      );
    }
  });

  it('prunes settled messages older than WEBHOOK_LOG_RETENTION_DAYS, keeping pending ones', async () => {
    const created = await endpoint('/old');
    const insert = async (status: string) =>
      (
        await base.dataSource.query<Array<{ message_id: string }>>(
          `WITH m AS (
             INSERT INTO webhook_messages (msg_id, brand_id, event_type, payload, created_at)
             VALUES ('msg_' || replace(gen_random_uuid()::text, '-', ''), $1, 'webhook.test', '{}', now() - interval '40 days')
             RETURNING id
           ) INSERT INTO webhook_deliveries (message_id, endpoint_id, status, next_attempt_at)
             SELECT id, $2, $3, now() + interval '1 day' FROM m RETURNING message_id`,
          [ctx.brandId, created.id, status],
        )
      )[0].message_id;
    const ids = { settled: await insert('succeeded'), pending: await insert('pending') };
    // An instance prunes at its first pass, then once an hour.
    await deliverDue(await instance(BY_HAND));
    await eventually(async () =>
      expect(
        await count('SELECT count(*)::int AS n FROM webhook_messages WHERE id = ANY($1::bigint[])', [
          [ids.settled, ids.pending],
        ]),
      ).toBe(1),
    );
    expect(await count('SELECT count(*)::int AS n FROM webhook_messages WHERE id = $1', [ids.pending])).toBe(1);
  });
});
