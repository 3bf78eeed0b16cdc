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
