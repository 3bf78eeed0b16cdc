import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ClientConfig } from 'pg';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { PipelinedConnections } from './pipelined-connections';
import { requestCommits } from './request-commits';
import { retryDeadlocks } from './transactions';

export interface Prepared {
  /** Names the server-side prepared statement; each pool connection prepares it once. */
  name: string;
  text: string;
}

interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** pg's Pool, which TypeORM's PostgresDriver keeps as `master`, with the options its clients connect with. */
type PgPool = PgClient & { options: ClientConfig };

/**
 * Runs hot-path statements as named prepared statements: PostgreSQL parses and plans each once
 * per connection instead of on every request. TypeORM's `query` cannot name statements, so these
 * go to the pg pool under TypeORM's driver (one statement outside a transaction: a query runner
 * per request cost the key-checked read a twentieth of its time), to pipelined connections made
 * with the pool's options (PipelinedConnections: one for reads, one for single-statement
 * writes), or to the pg client of the caller's transaction. Checked when the application starts,
 * so a driver that cannot name statements stops the start-up with the reason rather than failing
 * requests.
 */
@Injectable()
export class PreparedStatements implements OnModuleInit, OnModuleDestroy {
  private pool: PgPool | null = null;
  private reads: PipelinedConnections | null = null;
  private writes: PipelinedConnections | null = null;

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async onModuleInit(): Promise<void> {
    const master = (this.db.driver as unknown as { master?: Partial<PgPool> }).master;
    if (typeof master?.query !== 'function') throw new Error('prepared statements need the pg driver and its pool');
    this.pool = master as PgPool;
    this.reads = new PipelinedConnections(this.pool.options, 'reads');
    this.writes = new PipelinedConnections(this.pool.options, 'writes');
    const rows = await this.run<{ ok: number }>({ name: 'prepared_statements_check', text: 'SELECT 1 AS ok' }, []);
    if (rows[0]?.ok !== 1) throw new Error('prepared statements: the database connection did not answer SELECT 1');
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.reads?.close(), this.writes?.close()]);
  }

  /** A read-only statement that takes no row locks, on a pipelined connection. */
  async read<T>(statement: Prepared, values: unknown[]): Promise<T[]> {
    return this.reads!.query<T>({ name: statement.name, text: statement.text, values });
  }

  /**
   * A write that is a transaction of its own, on a pipelined connection; committed when it returns.
   * Never from inside a transaction (see PipelinedConnections).
   */
  async write<T>(statement: Prepared, values: unknown[]): Promise<T[]> {
    const commits = requestCommits();
    if (!commits) return this.writes!.query<T>({ name: statement.name, text: statement.text, values });
    // A request that logs its commits (RequestCommits) records the rows in the statement's own transaction.
    const replayed = commits.replay(statement.name);
    if (replayed) return replayed.result as T[];
    return retryDeadlocks(() =>
      this.db.transaction(async (tx) => {
        const rows = await this.runIn<T>(tx, statement, values);
        await commits.record(tx, statement.name, rows);
        return rows;
      }),
    );
  }

  /** On a connection of the pool, returned to it afterwards. */
  async run<T>(statement: Prepared, values: unknown[]): Promise<T[]> {
    return (await this.pool!.query({ ...statement, values })).rows as T[];
  }

  /** On the connection of the caller's transaction. */
  async runIn<T>(tx: EntityManager, statement: Prepared, values: unknown[]): Promise<T[]> {
    return query<T>(tx.queryRunner!, statement, values);
  }
}

async function query<T>(runner: QueryRunner, statement: Prepared, values: unknown[]): Promise<T[]> {
  const client = (await runner.connect()) as Partial<PgClient>;
  if (typeof client.query !== 'function') throw new Error('prepared statements need the pg driver');
  return (await client.query({ ...statement, values })).rows as T[];
}
