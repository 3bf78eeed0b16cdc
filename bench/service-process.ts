import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BENCH_ADMIN } from './workload';

// BENCH_CPU_PROF=DIR writes the service's CPU profile there.
const cpuProfDir = process.env.BENCH_CPU_PROF;
// BENCH_METRICS=1 runs the service with its Prometheus metrics on (METRICS_PORT: the API port + 1000),
// scraped every BENCH_METRICS_SCRAPE_MS (default 5000, oftener than Prometheus' usual 15 s).
const METRICS_SCRAPE_MS = Number(process.env.BENCH_METRICS_SCRAPE_MS ?? 5000);

export const metricsOn = (): boolean => Boolean(process.env.BENCH_METRICS) && process.env.BENCH_METRICS !== '0';

/** `env`: variables over the bench's own, for a run that needs a setting of its own (bench:scale's pruning). */
export function startService(databaseUrl: string, port: number, env: Record<string, string> = {}): ChildProcess {
  const metricsPort = metricsOn() ? port + 1000 : undefined;
  const flags = [
    ...productionNodeFlags(),
    // BENCH_SERVICE_FLAGS adds node flags (a later --max-old-space-size overrides the default one).
    ...(process.env.BENCH_SERVICE_FLAGS?.split(' ').filter(Boolean) ?? []),
    ...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []),
  ];
  const child = spawn(process.execPath, [...flags, path.resolve(__dirname, '../dist/main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123',
      BOOTSTRAP_ADMIN_EMAIL: BENCH_ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: BENCH_ADMIN.password,
      // The benchmark measures the service, not the per-key limits it would otherwise hit.
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '2000000',
      // DATABASE_POOL_SIZE is left to the service's default (10), as the limit's server runs too:
      // on two cores, thirty backends cost PostgreSQL more CPU a statement than ten, in every
      // alternated pair measured. Set it in the environment to try another.

      // The webhook_unique_subscribed scenario's receiver listens on this machine.
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_POLL_MS: '200',
      // BENCH_HTTP_ADAPTER=express measures the other platform (contract §14).
      HTTP_ADAPTER: process.env.BENCH_HTTP_ADAPTER ?? process.env.HTTP_ADAPTER ?? 'fastify',
      ...(metricsPort ? { METRICS_PORT: String(metricsPort) } : { METRICS_PORT: '' }),
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (metricsPort) scrapeWhileRunning(child, `http://127.0.0.1:${metricsPort}/metrics`);
  return child;
}

/** Scrapes the service's metrics as Prometheus would, for as long as it runs. */
function scrapeWhileRunning(service: ChildProcess, url: string): void {
  let answered = false;
  const timer = setInterval(() => {
    fetch(url)
      .then(async (response) => {
        await response.text();
        if (response.status !== 200) throw new Error(`metrics scrape answered ${response.status}`);
        answered = true;
      })
      .catch((error: Error) => {
        // Before the first answer the service is still starting.
        if (answered && service.exitCode === null && service.signalCode === null)
          process.stderr.write(`metrics scrape failed: ${error.message}\n`);
      });
  }, METRICS_SCRAPE_MS);
  timer.unref();
  service.once('exit', () => clearInterval(timer));
}

/** The node flags every start script gives the service (package.json's config.nodeFlags), so the bench runs it as production does. */
function productionNodeFlags(): string[] {
  const { config } = JSON.parse(readFileSync(path.resolve(__dirname, '../package.json'), 'utf8')) as {
    config: { nodeFlags: string };
  };
  return config.nodeFlags.split(/\s+/).filter(Boolean);
}

export async function stopService(service: ChildProcess): Promise<void> {
  if (service.exitCode !== null || service.signalCode !== null) return;
  const exited = new Promise((resolve) => service.once('exit', resolve));
  service.kill('SIGINT');
  await exited;
}

export async function waitHealthy(base: string, service: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (service.exitCode !== null) throw new Error('the service exited during start');
    if ((await fetch(`${base}/health`).catch(() => undefined))?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the service did not become healthy');
}

export function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}
