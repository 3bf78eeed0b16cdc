import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ClientConfig } from 'pg';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { PG_CONNECTION } from './pg-connection';
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

/**
 * Runs hot-path statements as named prepared statements: PostgreSQL parses and plans each once
 * per connection instead of on every request. TypeORM's `query` cannot name statements, so these
 * go to pipelined connections of our own, opened with the service's connection settings
 * (PipelinedConnections: one for reads, one for single-statement writes), or to the pg client of
 * the caller's transaction. A first statement when the application starts makes a connection
 * that cannot be had stop the start-up with the reason rather than fail requests.
 */
@Injectable()
export class PreparedStatements implements OnModuleInit, OnApplicationShutdown {
  private reads: PipelinedConnections | null = null;
  private writes: PipelinedConnections | null = null;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(PG_CONNECTION) private readonly connection: ClientConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    this.reads = new PipelinedConnections(this.connection, 'reads');
    this.writes = new PipelinedConnections(this.connection, 'writes');
    const rows = await this.read<{ ok: number }>({ name: 'prepared_statements_check', text: 'SELECT 1 AS ok' }, []);
    if (rows[0]?.ok !== 1) throw new Error('prepared statements: the database connection did not answer SELECT 1');
  }

  /**
   * After the HTTP server has closed, not when modules are destroyed (before it closes): the
   * requests still in flight at a SIGTERM check their keys and write through these, and would
   * otherwise be answered 503 (and their keys left unidentified by the request log).
   */
  async onApplicationShutdown(): Promise<void> {
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
