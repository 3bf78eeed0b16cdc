/**
 * What the layers under the service cost a request before any of its own work: the servers of
 * floor-servers.ts loaded as the bench loads site_me (autocannon, 50 connections), in turns,
 * FLOOR_ROUNDS times (default 3) so that a slow minute of the machine falls on each of them.
 * Prints the median req/s, the server's CPU µs per request and node:http's CPU over each one's:
 * the limit's server is node:http (docs/performance.md, Method).
 *   npm run bench:floor
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { processCpuMs } from './cpu-meter';
import { DURATION, WARMUP, run } from './load';
import { FLOOR_KINDS, type FloorKind } from './floor-servers';

const ROUNDS = Number(process.env.FLOOR_ROUNDS ?? 3);
const PORT = Number(process.env.FLOOR_PORT ?? 3990);

function start(kind: FloorKind): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', path.join(__dirname, 'floor-servers.ts'), kind, String(PORT)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${kind} exited with ${code} before listening`)));
  });
}

function cpuMs(pid: number): number {
  const ms = processCpuMs(pid);
  if (ms === undefined) throw new Error(`no CPU time for process ${pid} (the floor needs Linux's /proc)`);
  return ms;
}

async function measure(kind: FloorKind): Promise<{ reqPerSec: number; cpuUs: number }> {
  const server = await start(kind);
  try {
    const base = `http://127.0.0.1:${PORT}`;
    const next = { method: 'GET', path: '/production-api/me', headers: { authorization: 'Bearer floor' } };
    await run(base, `${kind} warmup`, next, WARMUP);
    const before = cpuMs(server.pid!);
    const result = await run(base, kind, next);
    const answered = result.statuses['200'] ?? 0;
    if (result.errors > 0 || answered === 0) throw new Error(`${kind}: ${JSON.stringify(result.statuses)}`);
    return { reqPerSec: result.reqPerSec, cpuUs: ((cpuMs(server.pid!) - before) * 1000) / answered };
  } finally {
    server.kill();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const results = new Map<FloorKind, Array<{ reqPerSec: number; cpuUs: number }>>(FLOOR_KINDS.map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts one further along, so no kind always runs first.
    for (let i = 0; i < FLOOR_KINDS.length; i++) {
      const kind = FLOOR_KINDS[(round + i) % FLOOR_KINDS.length];
      results.get(kind)!.push(await measure(kind));
    }
  }
  // req/s is bounded by the load generator, which shares the two cores; the CPU per request is
  // the cost, and node:http's over a server's is the most of the limit that server can reach.
  const bare = median(results.get('node-http')!.map((r) => r.cpuUs));
  process.stdout.write(`\n${ROUNDS} rounds of ${DURATION} s, 50 connections; medians\n`);
  process.stdout.write(
    '| server | req/s | CPU µs/req | node:http CPU / this | req/s per round |\n|---|---|---|---|---|\n',
  );
  for (const [kind, runs] of results) {
    const reqPerSec = median(runs.map((r) => r.reqPerSec));
    const rounds = runs.map((r) => r.reqPerSec).join(', ');
    const cpu = median(runs.map((r) => r.cpuUs));
    process.stdout.write(`| ${kind} | ${reqPerSec} | ${cpu.toFixed(1)} | ${(bare / cpu).toFixed(2)} | ${rounds} |\n`);
  }
}

void main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
