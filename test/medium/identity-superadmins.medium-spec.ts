import { AppError } from '../../src/common/errors/app-error';
import { ErrorText } from '../../src/common/errors/error-texts';
import { IdentityModule } from '../../src/identity/identity.module';
import { UsersService } from '../../src/identity/users.service';
import { openMedium, type MediumSuite } from '../support/medium';

const outcomeOf = (work: Promise<unknown>) =>
  work.then(
    () => 'changed',
    (error: unknown) => {
      if (error instanceof AppError && error.status === 409 && error.message === ErrorText.lastSuperadmin)
        return 'refused';
      throw error;
    },
  );

/** The platform keeps one active superadministrator (admin.e2e-spec holds the 409 and its text). */
describe('the last active superadministrator', () => {
  let suite: MediumSuite;
  let users: UsersService;

  beforeAll(async () => {
    suite = await openMedium([IdentityModule]);
    users = suite.get(UsersService);
  });
  afterAll(() => suite?.close());

  const activeSuperadmins = async () =>
    Number((await suite.dataSource.query('SELECT count(*) FROM users WHERE is_superadmin AND active'))[0].count);
  const superadmin = (name: string) =>
    users.create({ email: `${name}-${Date.now()}@example.com`, password: 'medium-password-1', isSuperadmin: true });

  it('two of the last superadministrators removed at once: one change goes through, the other is refused', async () => {
    for (const change of [{ isSuperadmin: false }, { active: false }]) {
      await suite.dataSource.query('UPDATE users SET is_superadmin = false WHERE is_superadmin');
      const [a, b] = [await superadmin('a'), await superadmin('b')];
      const outcomes = await Promise.all([
        outcomeOf(users.update(a.id, change)),
        outcomeOf(users.update(b.id, change)),
      ]);
      expect({ change, outcomes: outcomes.sort() }).toEqual({ change, outcomes: ['changed', 'refused'] });
      expect(await activeSuperadmins()).toBe(1);
    }
  });
});
