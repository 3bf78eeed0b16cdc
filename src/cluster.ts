import 'reflect-metadata';
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { environmentOrExit } from './config/environment';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './database/embedded-postgres';
import { serveClusterMetrics } from './metrics/cluster-metrics';
import { closeMetricsServer } from './metrics/metrics-server';

/**
 * `npm run start:cluster`: CLUSTER_WORKERS service processes (default: one per core) sharing the
 * port and one database. Workers are ordinary instances (main.ts); everything they share lives in
 * the database (and Redis for rate limits), so they need no coordination here. A worker that
 * dies is replaced.
 */
async function primary(): Promise<void> {
  const env = environmentOrExit();
  const workers = Number(process.env.CLUSTER_WORKERS ?? availableParallelism());
  if (!Number.isInteger(workers) || workers < 1) {
    process.stderr.write('Invalid configuration: CLUSTER_WORKERS must be a positive integer\n');
    process.exit(1);
  }

  let embedded: EmbeddedDatabase | null = null;
  if (!env.DATABASE_URL) {
    embedded = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, log: (m) => process.stdout.write(`${m}\n`) });
    // embedded-postgres would stop its server on these signals before the workers close.
    process.removeAllListeners('SIGTERM');
    process.removeAllListeners('SIGINT');
  }
  const workerEnv = { DATABASE_URL: env.DATABASE_URL ?? embedded!.url };

  cluster.setupPrimary({ exec: path.join(__dirname, 'main.js') });
  // METRICS_PORT is the primary's: it serves every worker's figures, which they hand it over IPC.
  const metrics = env.METRICS_PORT === undefined ? undefined : await serveClusterMetrics(env.METRICS_PORT, env.HOST);
  let stopping = false;
  for (let i = 0; i < workers; i++) cluster.fork(workerEnv);
  cluster.on('exit', (worker: Worker, code, signal) => {
    if (stopping) return;
    process.stderr.write(`worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
    setTimeout(() => cluster.fork(workerEnv), 1000).unref();
  });

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));
    await Promise.all(
      alive.map(
        (worker) =>
          new Promise<void>((resolve) => {
            worker.once('exit', () => resolve());
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    await closeMetricsServer(metrics);
    await embedded?.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

primary().catch((error: unknown) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
