import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { withDatabaseName } from '../../src/database/database-url';

/** Set by the global setup (test/support/template-database.mjs). */
const TEMPLATE_ENV = 'CIL_TEST_TEMPLATE_DB';
/** Set by the global setup when its server takes PREPARE TRANSACTION (the embedded one). */
export const PREPARED_TRANSACTIONS_ENV = 'CIL_TEST_PREPARED_TRANSACTIONS';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** No schema at all, for suites that test the migrations themselves; otherwise fully migrated. */
  empty?: boolean;
}

/**
 * A database of its own for one suite, on the server the global setup chose; dropped after. It is
 * a copy of the run's migrated template, so the app's start-up migration finds nothing to do.
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is not set: the global setup did not run');
  const template = options.empty ? undefined : process.env[TEMPLATE_ENV];
  const name = `cil_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const from = template ? ` TEMPLATE "${template}"` : '';
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"${from}`));
  return {
    url: withDatabaseName(serverUrl, name),
    name,
    drop: async () => {
      await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

export async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
