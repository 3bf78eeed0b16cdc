/**
 * Two builds of the service side by side on one database, loaded in alternating short turns, so a
 * change smaller than the machine's drift between runs minutes apart can still be told:
 * each turn of one build sits next to a turn of the other, and the ratio is taken turn by turn.
 *   npm run bench:ab -- OTHER_CHECKOUT [SCENARIO]
 * OTHER_CHECKOUT: another clone, built (`npx tsc -p tsconfig.build.json`), e.g. of the commit
 * before a change. SCENARIO: site_me (default), admin_list, webhook_unique or webhook_dup30.
 * AB_TURNS pairs of turns (default 12) of AB_SECONDS each (default 3); AB_TURNS_OUT=1 prints each
 * turn's CPU. This checkout is B. BENCH_METRICS=1 runs both with metrics on (where the build has
 * them), BENCH_METRICS=B only this checkout's, to measure what they cost. AB_BOTH_WAYS=1 then runs
 * the other checkout's bench:ab against this one and prints √(B/A ÷ swapped B/A): a run favours
 * one side, whichever build it is, by a few per cent and on separate databases by up to 9 %
 * (docs/performance.md, Method). AB_SEPARATE_DATABASES=1 gives each build a database of its own,
 * migrated by that build, and adds each side's PostgreSQL CPU: for a change of schema, which on
 * one database both builds would run on.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CpuMeter, perRequestUs, processCpuMs } from './cpu-meter';
import { freshDatabase, settle, sql } from './database';
import { run, WARMUP, type NextRequest } from './load';
import { metricsOn, startService, stopService, waitHealthy } from './service-process';
import { scenarioRequests, seedData } from './workload';

const TURNS = Number(process.env.AB_TURNS ?? 12);
const SECONDS = Number(process.env.AB_SECONDS ?? 3);

interface Side {
  name: 'A' | 'B';
  base: string;
  pid: number;
  reqPerSec: number[];
  p99: number[];
  cpuUs: number[];
  /** With a database of its own: its PostgreSQL backends' CPU a request, turn by turn. */
  database?: CpuMeter;
  databaseUs: number[];
  requests?: Record<string, NextRequest>;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function turn(side: Side, next: NextRequest): Promise<void> {
  const before = processCpuMs(side.pid);
  const databaseBefore = await side.database?.sample();
  const result = await run(side.base, `${side.name}`, next, SECONDS);
  const after = processCpuMs(side.pid);
  const databaseAfter = await side.database?.sample();
  const answered = Object.values(result.statuses).reduce((n, c) => n + c, 0);
  const perRequest = perRequestUs(databaseBefore, databaseAfter, answered);
  if (perRequest) side.databaseUs.push(perRequest.database);
  if (result.errors > 0) throw new Error(`${side.name}: ${JSON.stringify(result.statuses)}`);
  side.reqPerSec.push(result.reqPerSec);
  side.p99.push(result.p99);
  if (before !== undefined && after !== undefined) side.cpuUs.push(((after - before) * 1000) / answered);
}

const MEDIAN_LINE = /^B\/A req\/s turn by turn: median ([\d.]+)/m;

async function main(): Promise<void> {
  const other = process.argv[2];
  const scenario = process.argv[3] ?? 'site_me';
  if (!other) throw new Error('usage: npm run bench:ab -- OTHER_CHECKOUT [SCENARIO]');
  // Swapped, BENCH_METRICS=B would turn metrics on in the other build: the two runs would measure different things.
  if (process.env.AB_BOTH_WAYS === '1' && process.env.BENCH_METRICS === 'B') {
    throw new Error('AB_BOTH_WAYS=1 measures the same two builds both ways: not with BENCH_METRICS=B');
  }
  const ratio = await sideBySide(other, scenario);
  if (process.env.AB_BOTH_WAYS === '1') bothWays(other, scenario, ratio);
}

/**
 * The other checkout's bench:ab with this one as its A (its own build of this one is the one
 * `npm run bench:ab` just made), and the two medians taken together.
 */
function bothWays(other: string, scenario: string, ratio: number): void {
  process.stdout.write(`\nswapped: B = ${other}, A = this checkout\n`);
  const env = { ...process.env, AB_BOTH_WAYS: '0' };
  const swapped = spawnSync(
    process.execPath,
    [require.resolve('ts-node/dist/bin'), '--transpile-only', 'bench/side-by-side.ts', process.cwd(), scenario],
    { cwd: path.resolve(other), env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  process.stdout.write(swapped.stdout);
  const median = MEDIAN_LINE.exec(swapped.stdout)?.[1];
  if (swapped.status !== 0 || !median) throw new Error(`the swapped run failed (exit ${swapped.status})`);
  process.stdout.write(
    `\nboth ways, this checkout over ${other}: √(${ratio.toFixed(3)} ÷ ${median}) = ${Math.sqrt(ratio / Number(median)).toFixed(3)}\n`,
  );
}

/** One run, this checkout as B; returns the median B/A req/s of its turns. */
async function sideBySide(other: string, scenario: string): Promise<number> {
  // Each checkout's bench starts its own dist/main.js.
  const { startService: startOther } = createRequire(__filename)(path.resolve(other, 'bench/service-process')) as {
    startService: typeof startService;
  };
  // One database for both, unless the two builds' schemas differ: then each migrates its own, else
  // both would run on the later schema and a change of schema would measure as nothing.
  const separate = process.env.AB_SEPARATE_DATABASES === '1';
  const databases = separate ? [await freshDatabase(), await freshDatabase()] : [await freshDatabase()];
  const [urlA, urlB] = [databases[0].url, databases[databases.length - 1].url];
  const port = 4100 + Math.floor(Math.random() * 50);
  const metricsOnlyB = process.env.BENCH_METRICS === 'B';
  // Each checkout's startService reads BENCH_METRICS as it starts its service.
  if (metricsOnlyB) process.env.BENCH_METRICS = '0';
  const a = startOther(urlA, port);
  if (metricsOnlyB) process.env.BENCH_METRICS = 'B';
  const b = startService(urlB, port + 60);
  try {
    const side = (name: Side['name'], pid: number, url: string, p: number): Side => ({
      name,
      base: `http://127.0.0.1:${p}`,
      pid,
      database: separate ? new CpuMeter(pid, url) : undefined,
      reqPerSec: [],
      p99: [],
      cpuUs: [],
      databaseUs: [],
    });
    const sides = [side('A', a.pid!, urlA, port), side('B', b.pid!, urlB, port + 60)];
    await waitHealthy(sides[0].base, a);
    await waitHealthy(sides[1].base, b);
    // Each database is seeded through its own service; one shared is seeded once.
    const sent: string[] = [];
    const seedOf = async (s: Side) => scenarioRequests(await seedData(s.base), sent);
    if (separate) await Promise.all(sides.map(async (s) => (s.requests = await seedOf(s))));
    else sides[0].requests = sides[1].requests = await seedOf(sides[1]);
    const requestsOf = (s: Side) => s.requests!;
    if (!requestsOf(sides[0])[scenario]) throw new Error(`unknown scenario ${scenario}`);
    // Both at once: warmed one after the other, the build warmed last answered more requests a
    // second in the later turns, whichever build it was (docs/performance.md, Method).
    await Promise.all(sides.map((s) => run(s.base, `${s.name} warmup`, requestsOf(s).webhook_unique, WARMUP)));
    for (const url of new Set([urlA, urlB])) {
      await sql(url, 'ANALYZE');
      if (scenario === 'admin_list') await settle(url);
    }
    for (let i = 0; i < TURNS; i++) {
      // ABBA: neither build always goes first.
      for (const side of i % 2 === 0 ? sides : [...sides].reverse()) await turn(side, requestsOf(side)[scenario]);
    }
    if (process.env.AB_TURNS_OUT) {
      for (const side of sides)
        process.stdout.write(
          `${side.name} CPU µs a request, turn by turn: ${side.cpuUs.map((c) => c.toFixed(0)).join(' ')}\n`,
        );
    }
    const [sideA, sideB] = sides;
    const ratios = sideB.reqPerSec.map((rps, i) => rps / sideA.reqPerSec[i]).sort((x, y) => x - y);
    const metrics = metricsOnlyB ? ', metrics on in B only' : metricsOn() ? ', metrics on' : '';
    process.stdout.write(
      `\n${scenario}, ${TURNS} pairs of ${SECONDS} s turns, B = this checkout, A = ${other}${metrics}\n`,
    );
    for (const side of sides) {
      const database = side.databaseUs.length ? `, PostgreSQL ${median(side.databaseUs).toFixed(0)}` : '';
      const cpu = side.cpuUs.length ? `, service CPU ${median(side.cpuUs).toFixed(0)}${database} µs a request` : '';
      process.stdout.write(
        `${side.name}: ${median(side.reqPerSec)} req/s, p99 ${median(side.p99)} ms${cpu} (medians)\n`,
      );
    }
    process.stdout.write(
      `B/A req/s turn by turn: median ${median(ratios).toFixed(3)}, quartiles ${ratios[Math.floor(TURNS / 4)].toFixed(3)}–${ratios[Math.floor((3 * TURNS) / 4)].toFixed(3)}\n`,
    );
    return median(ratios);
  } finally {
    await stopService(a);
    await stopService(b);
    for (const database of databases) await database.cleanup();
  }
}

void main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
