import { AccessKeysModule } from '../../src/access-keys/access-keys.module';
import { IntegrationKeysService } from '../../src/access-keys/integration-keys.service';
import { KeyChecks } from '../../src/access-keys/key-checks';
import { contextOf } from '../../src/common/context/context-of';
import { AppError } from '../../src/common/errors/app-error';
import { ErrorText } from '../../src/common/errors/error-texts';
import { RateLimitGuard } from '../../src/common/rate-limit/rate-limit.guard';
import { IdentityModule } from '../../src/identity/identity.module';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumBrand, mediumRequest, superadminContext } from '../support/medium-fixtures';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The rate limit's windows (rate-limits.e2e-spec holds the 429, its Retry-After and its text):
 * 2 a second on average (20 per 10 s) with bursts to 10, so two full bursts use up ten seconds.
 */
describe('rate limit: over ten seconds a key averages RATE_LIMIT_PER_SECOND, whatever its bursts', () => {
  let suite: MediumSuite;

  beforeAll(async () => {
    suite = await openMedium([IdentityModule, AccessKeysModule], {
      env: { RATE_LIMIT_PER_SECOND: '2', RATE_LIMIT_BURST: '10', OUTBOX_WORKER: 'false' },
    });
  });
  afterAll(() => suite?.close());

  /** `count` requests of one key at once through the rate-limit guard: each admitted, or its AppError. */
  async function burst(key: string, count: number): Promise<Array<'admitted' | AppError>> {
    const principal = await suite.get(KeyChecks).check(key, mediumRequest());
    const guard = suite.get(RateLimitGuard);
    return Promise.all(
      Array.from({ length: count }, async () => {
        const request = mediumRequest();
        contextOf(request).principal = principal;
        return guard.countBeforeRefusal(request).then(
          () => 'admitted' as const,
          (error: unknown) => {
            if (error instanceof AppError) return error;
            throw error;
          },
        );
      }),
    );
  }

  it('two full bursts a second apart are admitted; the next request is refused until the ten seconds end', async () => {
    const brand = await mediumBrand(suite);
    const ctx = await superadminContext(suite, brand);
    const { key } = await suite
      .get(IntegrationKeysService)
      .issue(ctx, { name: 'bursty', permissions: ['orders.read'] });
    expect(await burst(key, 10)).toEqual(Array(10).fill('admitted'));
    await sleep(1100);
    expect(await burst(key, 10)).toEqual(Array(10).fill('admitted'));
    await sleep(1100);
    const [third] = await burst(key, 1);
    expect(third).toBeInstanceOf(AppError);
    expect(third).toMatchObject({ status: 429, message: ErrorText.tooManyRequests });
    expect(Number((third as AppError).headers?.['Retry-After'])).toBeGreaterThanOrEqual(5);
  });
});
