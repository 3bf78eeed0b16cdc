import { Fixtures } from './fixtures';
import { createTestDatabase, type TestDatabase } from './test-database';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app';

export interface Suite {
  db: TestDatabase;
  t: TestApp;
  fx: Fixtures;
}

/** A suite's own database, the app on it, and the superadministrator's fixtures. */
export async function openSuite(options: Omit<TestAppOptions, 'databaseUrl'> = {}): Promise<Suite> {
  const db = await createTestDatabase();
  const t = await startTestApp({ databaseUrl: db.url, ...options });
  return { db, t, fx: await Fixtures.create(t.http) };
}

export async function closeSuite(suite: Partial<Suite>): Promise<void> {
  await suite.t?.close();
  await suite.db?.drop();
}

/**
 * One app for the describe blocks of several suites that need the same configuration (a boot costs
 * a second and a half, three times a CI run). The entry file creates it at its top level, so its
 * hooks run before and after every block's; a block reads `suite` in its own beforeAll. Blocks
 * make their own brands, so they see none of each other's data; they run one after the other.
 */
type SuiteOptions = Omit<TestAppOptions, 'databaseUrl'>;

export class SharedSuite {
  private opened?: Suite;

  /** `options`, or a function that gives them once the file's own servers (stubs) have started. */
  constructor(options: SuiteOptions | (() => Promise<SuiteOptions>)) {
    beforeAll(async () => {
      this.opened = await openSuite(typeof options === 'function' ? await options() : options);
    });
    afterAll(() => closeSuite(this.opened ?? {}));
  }

  get suite(): Suite {
    if (!this.opened) throw new Error('the shared suite is read before its beforeAll ran');
    return this.opened;
  }
}
