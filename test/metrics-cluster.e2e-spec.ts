import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { Scrape } from './support/prometheus-scrape';
import { freePort, serviceEnv, spawnService, stopService, type ServiceProcess } from './support/service-process';
import { waitForHealth } from './support/service-process';
import { createTestDatabase, withClient, type TestDatabase } from './support/test-database';

const DURATION = 'http_server_request_duration_seconds';
const HEALTH = { http_request_method: 'GET', http_route: '/health', http_response_status_code: '200' };

/** A request on a connection of its own, so the primary hands each to the next worker in turn. */
function healthOnNewConnection(baseUrl: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${baseUrl}/health`, { agent: false }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    }).once('error', reject);
  });
}

function childPids(pid: number): Promise<number[]> {
  return new Promise((resolve) => {
    const ps = spawn('pgrep', ['-P', String(pid)]);
    let out = '';
    ps.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    ps.once('exit', () => resolve(out.trim().split('\n').filter(Boolean).map(Number)));
  });
}

/** User and system CPU seconds of a process, as the kernel counts them. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Metrics under `npm run start:cluster`: the primary serves METRICS_PORT with every worker's figures. */
describe('metrics under the cluster', () => {
  let db: TestDatabase;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    if (service) await stopService(service);
    await db?.drop();
  });

  it('sums the workers: N requests add exactly N, the database gauges are not counted per worker', async () => {
    const metricsPort = await freePort();
    service = spawnService(
      await serviceEnv(db.url, {
        CLUSTER_WORKERS: '2',
        METRICS_PORT: String(metricsPort),
        OUTBOX_WORKER: 'false',
        WEBHOOK_WORKER: 'false',
        // Given, so the two workers do not both generate one in a fresh DATA_DIR.
        SECRETS_ENCRYPTION_KEY: 'ef'.repeat(32),
        // Each worker's `listening on` line tells when the replacement below has started.
        LOG_LEVEL: 'info',
      }),
      'cluster.js',
    );
    await waitForHealth(service);
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    const workers = await childPids(service.child.pid!);
    expect(`${workers.length} workers\n${service.output()}`).toMatch(/^2 workers\n/);

    const before = (await Scrape.of(metricsUrl)).histogramCount(DURATION, HEALTH);
    const cpuBefore = workers.map(cpuSeconds);
    const n = 200;
    for (let i = 0; i < n; i++) expect(await healthOnNewConnection(service.baseUrl)).toBe(200);
    // Both workers served some of them (each spent CPU on it), so the count below is a sum over both.
    const cpuSpent = workers.map((pid, i) => cpuSeconds(pid) - cpuBefore[i]);
    expect(cpuSpent.every((seconds) => seconds >= 0.03)).toBe(true);
    const scrape = async () => Scrape.of(metricsUrl);
    // Counted once each answer has gone; then exactly N, whichever worker served each.
    const deadline = Date.now() + 5000;
    let counted = 0;
    while (Date.now() < deadline && (counted = (await scrape()).histogramCount(DURATION, HEALTH) - before) < n)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(counted).toBe(n);

    expect((await scrape()).value('process_cpu_seconds_total')).toBeGreaterThan(0);

    await withClient(db.url, (c) =>
      c.query(
        `INSERT INTO outbox (kind, payload) SELECT 'mail.order_confirmation', jsonb_build_object('orderId', i)
           FROM generate_series(1, 3) AS i`,
      ),
    );
    const pending = await withClient(db.url, async (c) =>
      Number((await c.query(`SELECT count(*) AS n FROM outbox WHERE done_at IS NULL AND failed_at IS NULL`)).rows[0].n),
    );
    expect(pending).toBeGreaterThanOrEqual(3);
    expect((await scrape()).value('outbox_jobs', { state: 'pending' })).toBe(pending);

    // The workers never listen on METRICS_PORT (they would fail to start and be replaced), nor serve it on the API port.
    expect((await fetch(`${service.baseUrl}/metrics`)).status).toBe(404);
    expect(service.output()).not.toMatch(/EADDRINUSE|exited/);
    expect(await childPids(service.child.pid!)).toEqual(workers);

    // A worker that dies takes its share of the count with it (so the sum was over both), and
    // scrapes go on without waiting for it, nor for its replacement while that one starts: polled
    // until a scrape made after the replacement has logged that it listens.
    const listening = () => service!.output().match(/listening on /g)?.length ?? 0;
    expect(listening()).toBe(workers.length);
    process.kill(workers[0], 'SIGKILL');
    let left: number | undefined;
    for (const until = Date.now() + 8000; Date.now() < until;) {
      const replaced = listening() > workers.length;
      const asked = Date.now();
      const counted = (await scrape()).histogramCount(DURATION, HEALTH) - before;
      expect(Date.now() - asked).toBeLessThan(2000);
      if (left !== undefined) expect(counted).toBe(left);
      else if (counted < n) left = counted;
      if (left !== undefined && replaced) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(listening()).toBe(workers.length + 1);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(n);
    const now = await childPids(service.child.pid!);
    expect(now).toHaveLength(2);
    expect(now).not.toContain(workers[0]);
  });
});
