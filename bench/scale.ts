/**
 * npm run bench:scale [-- --reuse] [--prune-only] [--json FILE]
 *
 * What a request costs on a store a few years old, beside what it costs on a new one (contract
 * §21). Builds a large store (bench/scale-data.ts: a million orders and the rest, by bulk SQL),
 * then starts the built service on it and on a new database side by side, runs the same
 * scenarios on each, alternating, and prints each pair's ratio of CPU per request (the service's
 * and PostgreSQL's) and of p99. On the large store it then times the lookups of a buyer (erasure
 * and export by phone and by e-mail) and measures the storefront webhook's p99 while a month of
 * history is pruned.
 *
 * `--reuse` keeps the large store between runs (its database and the seed file beside it), so a
 * change is measured without building it again; the service's start applies new migrations to it
 * first, as it would to a production store. `--prune-only` then measures the pruning alone.
 * SCALE_DURATION (seconds, default 5) sets each scenario's length, SCALE_ROUNDS (default 3) how
 * many times it runs on each database. On DATABASE_URL's server, else on an embedded one kept in
 * the temp folder.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { withDatabaseName } from '../src/database/database-url';
import { startEmbeddedPostgres } from '../src/database/embedded-postgres';
import { CpuMeter, perRequestUs } from './cpu-meter';
import { sql } from './database';
import { run, type NextRequest } from './load';
import { addPrunableMonth, buildLargeStore } from './scale-data';
import { fillFirstPages, scaleScenarios, seedScale, timeLookups, type ScaleSeed } from './scale-workload';
import { startService, stopService, waitHealthy } from './service-process';
import { webhookRequest } from './workload';

const args = process.argv.slice(2);
const reuse = args.includes('--reuse');
// --prune-only: on a reused store, the pruning's measure alone.
const pruneOnly = args.includes('--prune-only');
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
const DURATION = Number(process.env.SCALE_DURATION ?? 5);
const STORE = 'cil_bench_scale';
const HOME = path.join(tmpdir(), 'cil-bench-scale');
/** The rate and connections of the pruning's measure: a busy store's steady flow, not the machine's limit. */
const PRUNE_LOAD = { rate: 150, connections: 10 };
const PRUNE_SLICE_S = 5;
const PRUNE_BASELINE_S = 60;
/** How many times each scenario runs on each database (medians kept), and how long to wait for autovacuum. */
const ROUNDS = Number(process.env.SCALE_ROUNDS ?? 3);
const SETTLE_MAX_S = 180;
const PRUNE_MAX_S = 600;

const log = (line: string) => process.stderr.write(`${line}\n`);

interface Measured {
  cpuUs: number;
  p99: number;
  reqPerSec: number;
  errors: number;
}

async function main(): Promise<void> {
  mkdirSync(HOME, { recursive: true });
  const server = await serverUrl();
  const large = withDatabaseName(server, STORE);
  const seedFile = path.join(HOME, `${STORE}.seed.json`);
  let largeSeed: ScaleSeed;
  if (reuse && existsSync(seedFile) && (await databaseExists(server, STORE))) {
    largeSeed = JSON.parse(readFileSync(seedFile, 'utf8')) as ScaleSeed;
    log(`reusing the large store ${STORE}`);
  } else {
    await sql(server, `DROP DATABASE IF EXISTS "${STORE}" WITH (FORCE)`);
    await sql(server, `CREATE DATABASE "${STORE}"`);
    const started = Date.now();
    largeSeed = await withService(large, {}, (base) => seedScale(base));
    await buildLargeStore(large, largeSeed.bigBrandId, log);
    writeFileSync(seedFile, JSON.stringify(largeSeed));
    log(`large store built in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  const orders = Number((await sql(large, 'SELECT count(*) AS n FROM orders')).rows[0].n);

  if (pruneOnly) {
    const prune = await measurePruning(large, largeSeed);
    reportPruning(prune);
    if (jsonOut)
      writeFileSync(jsonOut, `${JSON.stringify({ orders, pruneP99Change: prune.change, prune }, null, 2)}\n`);
    return;
  }
  const freshName = `cil_bench_scale_new_${Date.now()}`;
  await sql(server, `CREATE DATABASE "${freshName}"`);
  const fresh = withDatabaseName(server, freshName);
  try {
    const freshSeed = await withService(fresh, {}, (base) => seedScale(base));
    // Pruning has its own measure below: here no service prunes events (a store left with a backlog
    // by an earlier run would be pruned under the scenarios).
    const measuring = { EVENTS_PRUNE_SECONDS: '0' };
    const { onFresh, onLarge } = await withService(fresh, measuring, (freshBase, freshPid) =>
      withService(large, measuring, async (largeBase, largePid) =>
        measurePairs(
          server,
          await prepare({ base: freshBase, pid: freshPid, url: fresh, seed: freshSeed, isNew: true }),
          await prepare({ base: largeBase, pid: largePid, url: large, seed: largeSeed, isNew: false }),
        ),
      ),
    );
    const lookupsMs = await withService(large, {}, (base) => timeLookups(base, largeSeed));
    const ratios = Object.fromEntries(
      Object.keys(onFresh).map((name) => [name, round(onLarge[name].cpuUs / onFresh[name].cpuUs)]),
    );
    const p99Ratios = Object.fromEntries(
      Object.keys(onFresh).map((name) => [name, round(onLarge[name].p99 / Math.max(onFresh[name].p99, 1))]),
    );
    const result = { orders, ratios, p99Ratios, lookupsMs, pruneP99Change: null as number | null, onFresh, onLarge };
    const write = (extra: object = {}) =>
      jsonOut && writeFileSync(jsonOut, `${JSON.stringify({ ...result, ...extra }, null, 2)}\n`);
    report(orders, onFresh, onLarge, ratios, p99Ratios, lookupsMs);
    // Written before the pruning, which changes the store: a failed pruning keeps what was measured.
    write();
    const prune = await measurePruning(large, largeSeed);
    reportPruning(prune);
    result.pruneP99Change = prune.change;
    write({ prune });
  } finally {
    await sql(server, `DROP DATABASE IF EXISTS "${freshName}" WITH (FORCE)`);
  }
}

/** DATABASE_URL's server, else an embedded one whose data folder is kept for `--reuse`. */
async function serverUrl(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const dataDir = path.join(HOME, 'pgdata');
  const embedded = await startEmbeddedPostgres({ dataDir, databaseName: 'postgres' });
  process.once('exit', () => void embedded.stop());
  return embedded.url;
}

async function databaseExists(server: string, name: string): Promise<boolean> {
  return (await sql(server, 'SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
}

let nextPort = Math.floor(Math.random() * 90);

/** The built service on `url` for the length of `work`, which gets its address and process id. */
async function withService<T>(
  url: string,
  env: Record<string, string>,
  work: (base: string, pid: number) => Promise<T>,
): Promise<T> {
  // Two services run side by side: each start takes the next port.
  const port = 3900 + (nextPort++ % 90);
  const service = startService(url, port, env);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(base, service);
    return await work(base, service.pid!);
  } finally {
    await stopService(service);
  }
}

interface Side {
  base: string;
  pid: number;
  url: string;
  seed: ScaleSeed;
  isNew: boolean;
}

/** A database's service warmed up, with its scenarios and its CPU meter. */
async function prepare(side: Side) {
  await run(side.base, 'warmup', () => webhookRequest(side.seed.bigStorefrontKey, [], 0), 3);
  if (side.isNew) await fillFirstPages(side.url, side.seed);
  const scenarios = await scaleScenarios(side.base, side.url, side.seed);
  // A new database's statistics are those of empty tables; the large store's were taken after its build.
  if (side.isNew) await sql(side.url, 'ANALYZE');
  return { ...side, scenarios, cpu: new CpuMeter(side.pid, side.url) };
}

/**
 * Every scenario on both databases, their services up side by side: each scenario runs ROUNDS
 * times on each, alternating which goes first, and keeps its medians, so that what the machine
 * does meanwhile (a checkpoint, a vacuum, another program) weighs on both sides alike.
 */
async function measurePairs(server: string, fresh: Prepared, large: Prepared) {
  await waitForQuiet(server);
  const onFresh: Record<string, Measured> = {};
  const onLarge: Record<string, Measured> = {};
  for (const name of Object.keys(fresh.scenarios)) {
    const runs = new Map<Prepared, Measured[]>([
      [fresh, []],
      [large, []],
    ]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? [fresh, large] : [large, fresh]) {
        runs.get(side)!.push(await measureOne(side, name));
      }
    }
    onFresh[name] = medianOf(runs.get(fresh)!);
    onLarge[name] = medianOf(runs.get(large)!);
  }
  return { onFresh, onLarge };
}

type Prepared = Awaited<ReturnType<typeof prepare>>;

async function measureOne(side: Prepared, name: string): Promise<Measured> {
  const next = side.scenarios[name];
  await run(side.base, `${name} (warm-up)`, next, 1);
  const before = await side.cpu.sample();
  const result = await run(side.base, `${name} on the ${side.isNew ? 'new database' : 'large store'}`, next, DURATION);
  const answered = Object.values(result.statuses).reduce((n, c) => n + c, 0);
  const us = perRequestUs(before, await side.cpu.sample(), answered);
  return {
    cpuUs: us ? us.service + us.database : NaN,
    p99: result.p99,
    reqPerSec: result.reqPerSec,
    errors: result.errors,
  };
}

/** Each figure's median over the runs (errors: their sum). */
function medianOf(runs: Measured[]): Measured {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  return {
    cpuUs: Math.round(median(runs.map((r) => r.cpuUs))),
    p99: median(runs.map((r) => r.p99)),
    reqPerSec: Math.round(median(runs.map((r) => r.reqPerSec))),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

/**
 * Waits (up to SETTLE_MAX_S) until the server runs no autovacuum, after a checkpoint: a store just
 * built or pruned is vacuumed for minutes, on the cores the measure shares.
 */
async function waitForQuiet(server: string): Promise<void> {
  // CHECKPOINT needs a superuser (or pg_checkpoint); without one the measure is merely noisier.
  await sql(server, 'CHECKPOINT').catch(() => undefined);
  const until = Date.now() + SETTLE_MAX_S * 1000;
  while (Date.now() < until) {
    const { rows } = await sql(
      server,
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'`,
    );
    if (rows[0].n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  log(`autovacuum still running after ${SETTLE_MAX_S} s: measuring anyway`);
}

/**
 * The storefront webhook's p99 at a steady rate for PRUNE_BASELINE_S seconds without pruning, then
 * while a month past its retention (events, request log, webhook log) is pruned. Each p99 is taken
 * over every answer of its phase, so a phase's length does not bias it as the worst of its slices
 * would; the worst slice of each is kept beside it.
 */
async function measurePruning(url: string, seed: ScaleSeed) {
  const sent: string[] = [];
  const next: NextRequest = () => webhookRequest(seed.bigStorefrontKey, sent, 0);
  const phase = async (base: string, count: number, until?: (sliceP99: number) => Promise<boolean>) => {
    const latencies: number[] = [];
    const sliceP99s: number[] = [];
    for (let i = 0; i < count; i++) {
      const slice = await run(base, 'webhook at a steady rate', next, PRUNE_SLICE_S, { ...PRUNE_LOAD, latencies });
      sliceP99s.push(slice.p99);
      if (until && (await until(slice.p99))) break;
    }
    return { p99: percentile(latencies, 0.99), worstSlice: Math.max(...sliceP99s), answers: latencies.length };
  };
  await waitForQuiet(url);
  const quiet = { EVENTS_PRUNE_SECONDS: '0' };
  const baseline = await withService(url, quiet, async (base) => {
    await run(base, 'warmup', next, 3, PRUNE_LOAD);
    return phase(base, PRUNE_BASELINE_S / PRUNE_SLICE_S);
  });
  const added = await addPrunableMonth(url, seed.bigBrandId, log);
  const started = Date.now();
  const during = await withService(url, { EVENTS_PRUNE_SECONDS: '1' }, (base) =>
    phase(base, PRUNE_MAX_S / PRUNE_SLICE_S, async (sliceP99) => {
      const state = await pruningState(url);
      log(
        `  slice p99 ${sliceP99} ms; still to prune: ${state.tables.join(', ') || 'nothing'}; autovacuum ${state.vacuums}`,
      );
      return state.tables.length === 0;
    }),
  );
  const left = await prunableLeft(url);
  return {
    added,
    left,
    seconds: Math.round((Date.now() - started) / 1000),
    baselineP99: baseline.p99,
    pruningP99: during.p99,
    change: round(during.p99 / baseline.p99 - 1),
    worstSliceP99: { baseline: baseline.worstSlice, pruning: during.worstSlice },
    answers: { baseline: baseline.answers, pruning: during.answers },
  };
}

/** The q-quantile of the values (nearest rank). */
function percentile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

const PRUNABLE = {
  events: `domain_events WHERE occurred_at < now() - interval '90 days'`,
  failures: `request_failures WHERE at < now() - interval '30 days'`,
  counts: `request_counts WHERE minute < now() - interval '30 days'`,
  messages: `webhook_messages WHERE created_at < now() - interval '30 days'`,
};

/** Rows still past their retention (the defaults: events 90 days, request and webhook logs 30). */
async function prunableLeft(url: string): Promise<number> {
  const counts = Object.values(PRUNABLE).map((rows) => `(SELECT count(*) FROM ${rows})`);
  const { rows } = await sql(url, `SELECT ${counts.join(' + ')} AS n`);
  return Number(rows[0].n);
}

/**
 * Which tables still hold rows past their retention, and how many autovacuum workers run: asked
 * after each slice of the pruning's measure, so it reads one row of each (counting them there
 * would add its own load to what is measured).
 */
async function pruningState(url: string): Promise<{ tables: string[]; vacuums: number }> {
  const present = Object.entries(PRUNABLE).map(([name, rows]) => `EXISTS (SELECT 1 FROM ${rows}) AS ${name}`);
  const { rows } = await sql(
    url,
    `SELECT ${present.join(', ')},
            (SELECT count(*)::int FROM pg_stat_activity WHERE backend_type = 'autovacuum worker') AS vacuums`,
  );
  const state = rows[0] as Record<string, boolean | number>;
  return { tables: Object.keys(PRUNABLE).filter((name) => state[name] === true), vacuums: Number(state.vacuums) };
}

const round = (n: number) => Math.round(n * 100) / 100;

function report(
  orders: number,
  onFresh: Record<string, Measured>,
  onLarge: Record<string, Measured>,
  ratios: Record<string, number>,
  p99Ratios: Record<string, number>,
  lookupsMs: Record<string, number>,
) {
  const rows = Object.keys(onFresh).map(
    (name) =>
      `| ${name.padEnd(28)} | ${String(onFresh[name].cpuUs).padStart(8)} | ${String(onLarge[name].cpuUs).padStart(8)} | ${String(ratios[name]).padStart(5)} | ${String(onFresh[name].p99).padStart(5)} | ${String(onLarge[name].p99).padStart(5)} | ${String(p99Ratios[name]).padStart(5)} | ${onFresh[name].errors + onLarge[name].errors}`,
  );
  process.stdout.write(
    [
      '',
      `large store: ${orders} orders; ${DURATION} s a scenario`,
      '| scenario                     | CPU µs new | large | ratio | p99 new | large | ratio | errors',
      '|------------------------------|----------|----------|-------|-------|-------|-------|-------',
      ...rows,
      `lookups on the large store, median ms: ${JSON.stringify(lookupsMs)}`,
      '',
    ].join('\n'),
  );
}

function reportPruning(prune: Awaited<ReturnType<typeof measurePruning>>) {
  process.stdout.write(
    `pruning ${JSON.stringify(prune.added)} in ${prune.seconds} s (${prune.left} left): webhook p99 ${prune.baselineP99} → ${prune.pruningP99} ms (${Math.round(prune.change * 100)} %; worst ${PRUNE_SLICE_S} s slice ${prune.worstSliceP99.baseline} → ${prune.worstSliceP99.pruning} ms)\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:scale failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
