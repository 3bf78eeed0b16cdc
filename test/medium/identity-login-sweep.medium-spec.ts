import { mediumLogin } from '../support/medium-fixtures';
import { IdentityModule } from '../../src/identity/identity.module';
import { openMedium, type MediumSuite } from '../support/medium';
import { ADMIN } from '../support/test-app';

/** The sweep runs on an instance's first login, then once a minute: an instance of its own. */
describe('login failures of e-mails nobody tries again', () => {
  let suite: MediumSuite;

  beforeAll(async () => {
    suite = await openMedium([IdentityModule], {
      env: { BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password },
    });
  });
  afterAll(() => suite?.close());

  it('are swept once out of the window, by the next login of anyone; failures inside it stay', async () => {
    const count = async (email: string) =>
      Number((await suite.dataSource.query('SELECT count(*) FROM login_failures WHERE email = $1', [email]))[0].count);
    await suite.dataSource.query(
      `INSERT INTO login_failures (email, attempted_at)
       SELECT 'gone@example.com', now() - interval '16 minutes' FROM generate_series(1, 5)
       UNION ALL SELECT 'recent@example.com', now() - interval '14 minutes'`,
    );
    await mediumLogin(suite, ADMIN.email, ADMIN.password);
    // The sweep does not hold up the login; give it a moment.
    for (let waited = 0; waited < 5000 && (await count('gone@example.com')) > 0; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect([await count('gone@example.com'), await count('recent@example.com')]).toEqual([0, 1]);
  });
});
