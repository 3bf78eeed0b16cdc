import { DataSource } from 'typeorm';

// Arbitrary constant shared by every instance: several instances starting together on one
// database must not apply the same migration twice.
const MIGRATION_LOCK_KEY = 4_120_771_339;

export async function runMigrationsExclusively(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
