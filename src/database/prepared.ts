import type { DataSource, EntityManager } from 'typeorm';

export interface Prepared {
  /** Names the server-side prepared statement; each pool connection prepares it once. */
  name: string;
  text: string;
}

interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a hot-path statement as a named prepared statement: PostgreSQL parses and plans it once
 * per connection instead of on every request. TypeORM's `query` cannot name statements, so this
 * goes to the pg pool (or the transaction's own connection) underneath.
 */
export async function runPrepared<T>(db: DataSource, statement: Prepared, values: unknown[]): Promise<T[]> {
  const pool = (db.driver as unknown as { master: PgQueryable }).master;
  return (await pool.query({ ...statement, values })).rows as T[];
}

/** The same inside a transaction, on its connection. */
export async function runPreparedIn<T>(tx: EntityManager, statement: Prepared, values: unknown[]): Promise<T[]> {
  const client = (await tx.queryRunner!.connect()) as PgQueryable;
  return (await client.query({ ...statement, values })).rows as T[];
}
