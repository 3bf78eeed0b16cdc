import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { withDatabaseName } from '../../src/database/database-url';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A database of its own for one suite, on the server the global setup chose; dropped after. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is not set: the global setup did not run');
  const name = `cil_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
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
