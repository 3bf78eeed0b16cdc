import { mediumLogin } from '../support/medium-fixtures';
import { randomBytes } from 'node:crypto';
import { AppError } from '../../src/common/errors/app-error';
import { ErrorText } from '../../src/common/errors/error-texts';
import { IdentityModule } from '../../src/identity/identity.module';
import { UsersService } from '../../src/identity/users.service';
import { openMedium, type MediumSuite } from '../support/medium';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

type Outcome = 'signed in' | 401 | 429;

/**
 * At most 10 failed logins per e-mail in any 15 minutes, across every instance (auth.e2e-spec
 * holds the 429, its text and its Retry-After).
 */
describe('login throttling', () => {
  let db: TestDatabase;
  let instances: MediumSuite[];

  beforeAll(async () => {
    db = await createTestDatabase();
    instances = await Promise.all([1, 2].map(() => openMedium([IdentityModule], { db })));
  });
  afterAll(async () => {
    await Promise.all((instances ?? []).map((instance) => instance.close()));
    await db?.drop();
  });

  const user = async () => {
    const email = `throttled-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'medium-password-1';
    await instances[0].get(UsersService).create({ email, password });
    return { email, password };
  };
  const attempt = (email: string, password: string, instance = instances[0]): Promise<Outcome> =>
    mediumLogin(instance, email, password).then(
      () => 'signed in' as const,
      (error: unknown) => {
        if (!(error instanceof AppError)) throw error;
        if (error.status === 429) expect(error.message).toBe(ErrorText.tooManyLoginAttempts);
        if (error.status !== 401 && error.status !== 429) throw error;
        return error.status;
      },
    );
  const failLogins = async (email: string, times: number) => {
    for (let i = 0; i < times; i++) expect(await attempt(email, `wrong-${i}`)).toBe(401);
  };

  it('lets the account in again once the oldest failure leaves the window', async () => {
    const { email, password } = await user();
    await failLogins(email, 10);
    expect(await attempt(email, password)).toBe(429);
    await instances[0].dataSource.query(
      `UPDATE login_failures SET attempted_at = now() - interval '16 minutes' WHERE email = $1`,
      [email],
    );
    expect(await attempt(email, password)).toBe('signed in');
  });

  it('a success clears earlier failures', async () => {
    const { email, password } = await user();
    await failLogins(email, 9);
    expect(await attempt(email, password)).toBe('signed in');
    await failLogins(email, 9);
    expect(await attempt(email, password)).toBe('signed in');
  });

  it('a burst of parallel guesses spread over two instances gets exactly 10 tries', async () => {
    const { email } = await user();
    const outcomes = await Promise.all(
      Array.from({ length: 25 }, (_, i) => attempt(email, `guess-${i}`, instances[i % 2])),
    );
    expect(outcomes.filter((o) => o === 401)).toHaveLength(10);
    expect(outcomes.filter((o) => o === 429)).toHaveLength(15);
  });
});
