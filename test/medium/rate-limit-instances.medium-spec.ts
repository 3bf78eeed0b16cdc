import { randomBytes } from 'node:crypto';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { AccessKeysModule } from '../../src/access-keys/access-keys.module';
import { IntegrationKeysService } from '../../src/access-keys/integration-keys.service';
import { KeyChecks } from '../../src/access-keys/key-checks';
import type { BrandContext } from '../../src/common/context/request-context';
import { contextOf } from '../../src/common/context/context-of';
import { AppError } from '../../src/common/errors/app-error';
import { ErrorText } from '../../src/common/errors/error-texts';
import { RateLimitGuard } from '../../src/common/rate-limit/rate-limit.guard';
import { IdentityModule } from '../../src/identity/identity.module';
import { SecurityJournal } from '../../src/security-journal/security-journal.service';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumBrand, mediumRequest, superadminContext } from '../support/medium-fixtures';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const LIMITS = { RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_BURST: '10', OUTBOX_WORKER: 'false' };
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MODULES = [IdentityModule, AccessKeysModule];

type Outcome = 'admitted' | AppError;
const outcomeOf = (work: Promise<unknown>): Promise<Outcome> =>
  work.then(
    () => 'admitted' as const,
    (error: unknown) => {
      if (error instanceof AppError) return error;
      throw error;
    },
  );

/** `count` requests of one key at once through an instance's key check and rate limit, as its guards run them. */
async function burst(instance: MediumSuite, key: string, count: number, ip = '127.0.0.1'): Promise<Outcome[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      outcomeOf(
        (async () => {
          const request = mediumRequest(ip);
          contextOf(request).principal = await instance.get(KeyChecks).check(key, request);
          await instance.get(RateLimitGuard).countBeforeRefusal(request);
        })(),
      ),
    ),
  );
}

const statusesOf = (outcomes: Outcome[]) => outcomes.map((o) => (o === 'admitted' ? 200 : o.status)).sort();

/** What the limiter and the key check share between instances (rate-limits.e2e-spec holds the answers). */
describe('rate limits across instances', () => {
  let db: TestDatabase;
  let ctx: BrandContext;
  const opened: MediumSuite[] = [];
  const open = async (env: Record<string, string>) => {
    const instance = await openMedium(MODULES, { db, env });
    opened.push(instance);
    return instance;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    const first = await open(LIMITS);
    ctx = await superadminContext(first, await mediumBrand(first));
  });
  afterAll(async () => {
    await Promise.all(opened.map((instance) => instance.close()));
    await db?.drop();
  });

  it('with REDIS_URL the counters are shared by every instance', async () => {
    const env = { ...LIMITS, REDIS_URL, RATE_LIMIT_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}` };
    const [one, two] = await Promise.all([open(env), open(env)]);
    const { key } = await one.get(IntegrationKeysService).issue(ctx, { name: 'shared', permissions: ['orders.read'] });
    const outcomes = (await Promise.all([burst(one, key, 6), burst(two, key, 6)])).flat();
    expect(statusesOf(outcomes)).toEqual([...Array(10).fill(200), 429, 429]);
    expect(outcomes.find((o) => o !== 'admitted')).toMatchObject({ message: ErrorText.tooManyRequests });
  });

  it('with REDIS_URL the RateLimit field counts down across instances', async () => {
    const env = { ...LIMITS, REDIS_URL, RATE_LIMIT_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}` };
    const [one, two] = await Promise.all([open(env), open(env)]);
    const { key } = await one.get(IntegrationKeysService).issue(ctx, { name: 'fields', permissions: ['orders.read'] });
    const fields: string[] = [];
    for (const instance of [one, two, one, two]) {
      const request = mediumRequest('127.0.0.1');
      contextOf(request).principal = await instance.get(KeyChecks).check(key, request);
      const headers: Record<string, string> = {};
      const response = { setHeader: (name: string, value: string) => (headers[name] = value) };
      await instance.get(RateLimitGuard).canActivate(new ExecutionContextHost([request, response]));
      expect(headers['RateLimit-Policy']).toBe('"burst";q=10;w=1, "window";q=50;w=10');
      fields.push(headers.RateLimit.replace(/;t=\d+$/, ''));
    }
    // Four requests within one second of the burst window (its counter is Redis's, one for both).
    expect(fields).toEqual(['"burst";r=9', '"burst";r=8', '"burst";r=7', '"burst";r=6']);
  });

  it("two instances refusing one key's address at once count it on one journal entry, exactly", async () => {
    const [one, two] = [opened[0], await open(LIMITS)];
    const { id, key } = await one.get(IntegrationKeysService).issue(ctx, {
      name: 'pinned',
      permissions: ['orders.read', 'products.read'],
      allowedIps: ['10.0.0.0/8'],
    });
    const outcomes = (await Promise.all([burst(one, key, 8), burst(two, key, 8)])).flat();
    expect(statusesOf(outcomes)).toEqual(Array(16).fill(403));
    expect(outcomes[0]).toMatchObject({ message: ErrorText.addressNotAllowed });
    const entries = (await one.get(SecurityJournal).list({ brandId: ctx.brandId, limit: 200 })).filter(
      (e) => e.type === 'ip_not_allowed' && e.details.keyId === id,
    );
    // One entry a minute for a repeated refusal (a burst may straddle a minute).
    expect(entries.length).toBeLessThanOrEqual(2);
    expect(entries.reduce((sum, e) => sum + e.count, 0)).toBe(16);
    expect(entries[0]).toMatchObject({ ip: '127.0.0.1', details: { keyId: id, name: 'pinned', ip: '127.0.0.1' } });
  });
});
