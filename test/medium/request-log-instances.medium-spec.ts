import type { HttpRequest } from '../../src/common/context/http-types';
import { contextOf } from '../../src/common/context/context-of';
import { noteErrorText } from '../../src/common/errors/answered-error-text';
import { RequestOutcomes } from '../../src/common/http/request-outcomes';
import { AccessKeysModule } from '../../src/access-keys/access-keys.module';
import type { IntegrationKeyPrincipal } from '../../src/access-keys/integration-key.principal';
import { IdentityModule } from '../../src/identity/identity.module';
import { RequestLogModule } from '../../src/request-log/request-log.module';
import { RequestLogService } from '../../src/request-log/request-log.service';
import { PRUNE_LOCK_KEY } from '../../src/request-log/request-log.repository';
import { KEPT_429_PER_MINUTE, RequestRecorder } from '../../src/request-log/request-recorder';
import type { BrandContext } from '../../src/common/context/request-context';
import { eventually } from '../support/eventually';
import { openMedium, type MediumSuite } from '../support/medium';
import { withClient } from '../support/test-database';
import { mediumBrand, mediumIntegrationKey, superadminContext } from '../support/medium-fixtures';

/** The shortest flush the configuration allows: an entry is written within it, however many instances write. */
const FLUSH_MS = 50;
const ENV = { REQUEST_LOG_FLUSH_MS: String(FLUSH_MS) };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Long enough for several flushes of every instance: what a later flush would count twice has been written. */
const severalFlushes = () => sleep(4 * FLUSH_MS);

interface Answer {
  status: number;
  route: string;
  path: string;
  error?: string;
}
const ok: Answer = { status: 200, route: '/orders/admin/all', path: '/orders/admin/all' };
const missing: Answer = {
  status: 404,
  route: '/orders/admin/:orderId',
  path: '/orders/admin/999999',
  error: 'Not found',
};
const refused: Answer = {
  status: 429,
  route: '/orders/admin/all',
  path: '/orders/admin/all',
  error: 'Too many requests',
};

let requests = 0;

/**
 * An answer to a request made with `key`, told to the instance's outcome hook as the platform's hook
 * tells it: the guards' context on the request, the error filter's text noted on it.
 */
function answered(instance: MediumSuite, key: IntegrationKeyPrincipal, answer: Answer): void {
  const request: HttpRequest = {
    method: 'GET',
    url: `${answer.path}?limit=1`,
    headers: {},
    ip: '127.0.0.1',
    id: `medium-rl-${++requests}`,
  };
  const ctx = contextOf(request);
  ctx.principal = key;
  ctx.brandId = key.boundBrandId;
  if (answer.error) noteErrorText(request, answer.error);
  instance.get(RequestOutcomes).answered(request, answer.route, answer.status, 1.5);
}

/** The statuses of these answers, counted as /usage counts them. */
function tally(answers: Answer[]) {
  const byStatus: Record<string, number> = {};
  for (const { status } of answers) byStatus[status] = (byStatus[status] ?? 0) + 1;
  return { total: answers.length, byStatus };
}

/** Tells `answers` to `instance` one by one, a few milliseconds apart, so its flushes fall between them. */
async function answerOverTime(instance: MediumSuite, key: IntegrationKeyPrincipal, answers: Answer[]): Promise<void> {
  for (const [i, answer] of answers.entries()) {
    answered(instance, key, answer);
    if (i % 3 === 2) await sleep(7);
  }
}

/** Contract §15 across instances: the request log of one key written by several instances on one database. */
describe('the request log of a key, written by several instances', () => {
  let first: MediumSuite;
  let second: MediumSuite;
  let ctx: BrandContext;
  const modules = [IdentityModule, AccessKeysModule, RequestLogModule];

  const log = () => first.get(RequestLogService);
  const usageOf = (keyId: number) => log().usage(ctx, keyId);
  const requestsOf = (keyId: number, limit = 50) => log().requests(ctx, keyId, { limit });
  const newKey = () => mediumIntegrationKey(first, ctx, { permissions: ['orders.read'] });

  beforeAll(async () => {
    first = await openMedium(modules, { env: ENV });
    second = await openMedium(modules, { env: ENV, db: first.db });
    ctx = await superadminContext(first, await mediumBrand(first));
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('two instances on one database add up exactly, and nothing is counted twice', async () => {
    const key = await newKey();
    const sent = {
      first: [...Array<Answer>(7).fill(ok), ...Array<Answer>(3).fill(missing)],
      second: [...Array<Answer>(5).fill(ok), ...Array<Answer>(4).fill(missing)],
    };
    await Promise.all([
      answerOverTime(first, key.principal, sent.first),
      answerOverTime(second, key.principal, sent.second),
    ]);
    const all = [...sent.first, ...sent.second];
    expect(tally(all)).toEqual({ total: 19, byStatus: { '200': 12, '404': 7 } });
    await eventually(async () => expect((await usageOf(key.id)).last24h).toEqual(tally(all)), 5000);
    const listed = await requestsOf(key.id);
    expect(listed).toHaveLength(7);
    expect(listed.every((item) => item.path === missing.path && item.count === 1)).toBe(true);
    await severalFlushes();
    expect((await usageOf(key.id)).last24h).toEqual(tally(all));
    expect(await requestsOf(key.id)).toHaveLength(7);
  });

  it('two instances refusing one key keep at most the few a minute between them, and count every 429', async () => {
    const key = await newKey();
    // Each instance refuses 15 of its 45 requests, mixed in among the ones it served.
    const lane = Array.from({ length: 45 }, (_, i) => (i % 3 === 1 ? refused : ok));
    await Promise.all([answerOverTime(first, key.principal, lane), answerOverTime(second, key.principal, lane)]);
    const counted = tally([...lane, ...lane]);
    expect(counted.byStatus).toEqual({ '200': 60, '429': 30 });
    await eventually(async () => expect((await usageOf(key.id)).last24h).toEqual(counted), 5000);
    await severalFlushes();
    expect((await usageOf(key.id)).last24h).toEqual(counted);
    const listed = await requestsOf(key.id, 200);
    expect(listed.every((item) => item.status === 429 && item.error === 'Too many requests')).toBe(true);
    expect(listed.reduce((sum, item) => sum + item.count, 0)).toBe(30);
    // Each minute the burst fell in keeps the few and one counting row, however many instances refused.
    const byMinute = new Map<number, number>();
    for (const item of listed) {
      const minute = Math.floor(Date.parse(item.at) / 60_000);
      byMinute.set(minute, (byMinute.get(minute) ?? 0) + 1);
    }
    for (const rows of byMinute.values()) expect(rows).toBeLessThanOrEqual(KEPT_429_PER_MINUTE + 1);
    expect(listed.length).toBeLessThanOrEqual(2 * (KEPT_429_PER_MINUTE + 1));
    expect(listed.filter((item) => item.count > 1).length).toBeGreaterThanOrEqual(1);
    expect((await usageOf(key.id)).topErrors).toEqual([
      { status: 429, error: 'Too many requests', count: 30, lastAt: expect.any(String) },
    ]);
  });

  it('writes what an instance counted when it shuts down', async () => {
    // Its timer writes every 4 s (the longest allowed), so it rarely writes anything here; whatever it
    // has not written when close() returns must be there, which holds however slow the machine is.
    const key = await newKey();
    const stopping = await openMedium(modules, { env: { REQUEST_LOG_FLUSH_MS: '4000' }, db: first.db });
    try {
      for (let i = 0; i < 4; i++) answered(stopping, key.principal, ok);
      answered(stopping, key.principal, missing);
    } finally {
      await stopping.close();
    }
    expect((await usageOf(key.id)).last24h).toEqual({ total: 5, byStatus: { '200': 4, '404': 1 } });
    expect(await requestsOf(key.id)).toEqual([
      expect.objectContaining({ status: 404, path: missing.path, route: missing.route, error: 'Not found' }),
    ]);
  });

  it('prunes what is older than 30 days, one instance at a time', async () => {
    const key = await newKey();
    answered(first, key.principal, missing);
    await eventually(async () => expect(await requestsOf(key.id)).toHaveLength(1), 5000);
    await first.dataSource.query(
      `INSERT INTO request_failures (key_id, at, method, route, path, status, error, request_id, duration_ms, ip)
       VALUES ($1, now() - interval '31 days', 'GET', '/orders/admin/:orderId', '/orders/admin/1', 404, 'Not found', 'old', 1, '127.0.0.1')`,
      [key.id],
    );
    await first.dataSource.query(
      `INSERT INTO request_counts (key_id, minute, method, route, status, count)
       VALUES ($1, date_trunc('minute', now() - interval '31 days'), 'GET', '/orders/admin/:orderId', 404, 9)`,
      [key.id],
    );
    expect(await requestsOf(key.id)).toHaveLength(2);

    const recorder = first.get(RequestRecorder);
    // While another instance prunes (holds the turn), this one skips.
    const held = await withClient(first.db.url, async (client) => {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [PRUNE_LOCK_KEY]);
      const pruned = await recorder.prune();
      await client.query('ROLLBACK');
      return pruned;
    });
    expect(held).toBe(false);
    expect(await requestsOf(key.id)).toHaveLength(2);

    expect(await recorder.prune()).toBe(true);
    expect(await requestsOf(key.id)).toEqual([expect.objectContaining({ path: missing.path })]);
    const old = await first.dataSource.query(
      `SELECT count(*)::int AS n FROM request_counts WHERE key_id = $1 AND minute < now() - interval '30 days'`,
      [key.id],
    );
    expect(old).toEqual([{ n: 0 }]);
    expect((await usageOf(key.id)).last24h).toEqual({ total: 1, byStatus: { '404': 1 } });
  });
});
