// One migrated database per test run, which every suite's database is copied from
// (CREATE DATABASE … TEMPLATE), so no suite pays for the migrations again.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
// The service's own connection options and migration runner, as built by pretest.
import { dataSourceOptions } from '../../dist/database/data-source-options.js';
import { withDatabaseName } from '../../dist/database/database-url.js';
import { runMigrationsExclusively } from '../../dist/database/migration-runner.js';

/** Where the suites' copies find the template's name (workers inherit the global setup's environment). */
export const TEMPLATE_ENV = 'CIL_TEST_TEMPLATE_DB';

async function onServer(serverUrl, sql) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createTemplateDatabase(serverUrl) {
  // Several runs may share one server: each has a template of its own.
  const name = `cil_template_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE "${name}"`);
  try {
    await migrate(withDatabaseName(serverUrl, name));
    // A copy fails while anyone is connected to its source; nobody has a reason to connect.
    await onServer(serverUrl, `ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
  } catch (error) {
    // The global teardown does not run when the setup fails.
    await onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
    throw error;
  }
  process.env[TEMPLATE_ENV] = name;
}

async function migrate(url) {
  // Two connections: the runner holds the migration lock on one while the migrations run on the other.
  const dataSource = new DataSource(dataSourceOptions(url, 2));
  await dataSource.initialize();
  try {
    await runMigrationsExclusively(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

export async function dropTemplateDatabase(serverUrl) {
  const name = process.env[TEMPLATE_ENV];
  if (!name || !serverUrl) return;
  await onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}"`);
}
