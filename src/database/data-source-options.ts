import type { ClientConfig } from 'pg';
import { DataSourceOptions } from 'typeorm';
import { migrations } from './migrations';

/**
 * Every statement here is a keyed lookup or a brand's page, for which the generic plan is the
 * right one; left to choose, PostgreSQL re-plans `… LIMIT $n` on every call (a parameter limit is
 * costed as a tenth of the table), and planning the order list cost more than running it
 * (docs/performance.md, PERF-15).
 */
export const GENERIC_PLANS = '-c plan_cache_mode=force_generic_plan';

/** One definition of the connection, shared by the service, the tests and the TypeORM CLI. */
export function dataSourceOptions(url: string, poolSize = 10): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    // The schema comes from migrations only.
    synchronize: false,
    migrationsRun: false,
    extra: { ...CONNECTION_SETTINGS, max: poolSize },
  };
}

const CONNECTION_SETTINGS = {
  // Fail fast instead of hanging when the server is gone, so /health can answer 503.
  connectionTimeoutMillis: 5000,
  application_name: 'commerce-integration-layer',
  options: GENERIC_PLANS,
};

/** The settings every connection of the service opens with, TypeORM's pool's and our own alike. */
export function pgClientConfig(url: string): ClientConfig {
  return { connectionString: url, ...CONNECTION_SETTINGS };
}
