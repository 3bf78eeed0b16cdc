// With DATABASE_URL set the suites use that server (CI uses the machine's PostgreSQL); without it
// they start the same embedded PostgreSQL the service uses. The migrations run once, into a template
// database; each suite then gets a copy of its own (test/support/template-database.mjs).
import { chmod, mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { embeddedPostgresFor } from './support/embedded-postgres-class.mjs';
import { createTemplateDatabase } from './support/template-database.mjs';

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

export default async function globalSetup() {
  // The medium and e2e projects name this setup each; a run that selects both sets up once.
  globalThis.__cilTestSetups = (globalThis.__cilTestSetups ?? 0) + 1;
  if (globalThis.__cilTestSetups > 1) return;
  // Each boot of the service appends a line here (test/support/boot-count.ts); the teardown sums them.
  const boots = await mkdtemp(path.join(tmpdir(), 'cil-test-boots-'));
  process.env.CIL_TEST_BOOTS_FILE = path.join(boots, 'boots');
  if (!process.env.DATABASE_URL) await startEmbeddedPostgres();
  await createTemplateDatabase(process.env.DATABASE_URL);
}

async function startEmbeddedPostgres() {
  const root = await mkdtemp(path.join(tmpdir(), 'cil-test-pg-'));
  const EmbeddedPostgres = await embeddedPostgresFor(root, (message) => process.stderr.write(`${message}\n`)).catch(
    (error) => {
      process.stderr.write(`cannot start the test database: ${error.message}\n`);
      process.exit(1);
    },
  );
  // The server runs as the `postgres` OS user, which must traverse this folder.
  await chmod(root, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(root, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--no-sync'],
    // Prepared transactions, for the events API's horizon suite (a machine's server may allow none).
    postgresFlags: ['-c', 'fsync=off', '-c', 'max_connections=300', '-c', 'max_prepared_transactions=8'],
    onLog: () => undefined,
  });
  await server.initialise();
  await server.start();
  process.env.DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  process.env.CIL_TEST_PREPARED_TRANSACTIONS = '1';
  globalThis.__embeddedPostgres = { server, root };
}
