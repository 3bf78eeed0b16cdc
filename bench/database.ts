import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { withDatabaseName } from '../src/database/database-url';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/database/embedded-postgres';

/** A database of its own for one bench run: on DATABASE_URL's server, else on an embedded one. */
export async function freshDatabase(): Promise<{ url: string; cleanup: () => Promise<void> }> {
  let embedded: EmbeddedDatabase | undefined;
  let dataDir: string | undefined;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    dataDir = mkdtempSync(path.join(tmpdir(), 'cil-bench-'));
    embedded = await startEmbeddedPostgres({ dataDir, databaseName: 'postgres' });
    serverUrl = embedded.url;
  }
  const name = `cil_bench_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await sql(serverUrl, `CREATE DATABASE "${name}"`);
  return {
    url: withDatabaseName(serverUrl, name),
    cleanup: async () => {
      if (process.env.BENCH_KEEP_DB) return void process.stderr.write(`kept database ${name}\n`);
      await sql(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await embedded?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Before a read scenario and before its reference: the write scenarios' rows settled, and their
 * dirty pages written out now, so that a checkpoint does not land on one of the two and not the other.
 */
export async function settle(url: string): Promise<void> {
  await sql(url, 'VACUUM ANALYZE orders');
  // CHECKPOINT needs a superuser (or pg_checkpoint); without one the comparison is merely noisier.
  await sql(url, 'CHECKPOINT').catch(() => undefined);
}

export async function sql(url: string, text: string, params: unknown[] = []) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}
