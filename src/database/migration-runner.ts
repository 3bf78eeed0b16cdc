import { DataSource } from 'typeorm';

// Arbitrary constant shared by every instance: several instances starting together on one
// database must not apply the same migration twice.
const MIGRATION_LOCK_KEY = 4_120_771_339;

/** How often an instance that waits for another's migrations asks for the lock again. */
const LOCK_POLL_MS = 200;

export async function runMigrationsExclusively(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    // Asked again and again, not waited for in one statement: a statement waiting for the lock
    // holds a snapshot, and a CREATE INDEX CONCURRENTLY of the instance that holds the lock waits
    // for every snapshot older than its index, so the two would wait for each other.
    for (;;) {
      const rows = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK_KEY])) as {
        locked: boolean;
      }[];
      if (rows[0].locked) break;
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
