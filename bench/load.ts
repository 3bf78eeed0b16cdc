import autocannon from 'autocannon';

export const DURATION = Number(process.env.BENCH_DURATION ?? 10);
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
export const CONNECTIONS = 50;
/** BENCH_RATE=N paces every scenario at N requests a second in all (autocannon's overallRate); unset, as fast as they go. */
const RATE = process.env.BENCH_RATE ? Number(process.env.BENCH_RATE) : undefined;

export interface ScenarioResult {
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  statuses: Record<string, number>;
  /** CPU µs per answered request (CpuMeter), when it could be read. */
  cpuUs?: { service: number; database: number };
}

export interface BenchRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}
/**
 * Each request from a function, or one request sent again and again. autocannon builds a fixed
 * request's bytes once and a function's on every send, nearly twice the load generator's CPU a
 * request, on the cores it shares with the server. The limit sends its reads fixed, and so do the
 * read scenarios here.
 */
export type NextRequest = (() => BenchRequest) | BenchRequest;

/**
 * One scenario: autocannon at CONNECTIONS connections (or `options.connections`) for `duration`
 * seconds, each request from `next`; paced at `options.rate` requests a second in all when given.
 * `options.latencies` receives every answer's time in ms, so that several runs' percentiles can be
 * taken over all their answers together.
 */
export async function run(
  base: string,
  name: string,
  next: NextRequest,
  duration = DURATION,
  options: { connections?: number; rate?: number; latencies?: number[] } = {},
): Promise<ScenarioResult> {
  const rate = options.rate ?? RATE;
  const statuses: Record<string, number> = {};
  const result = await autocannon({
    url: base,
    connections: options.connections ?? CONNECTIONS,
    duration,
    ...(rate ? { overallRate: rate } : {}),
    requests: [
      typeof next === 'function'
        ? { setupRequest: (request: Record<string, unknown>) => ({ ...request, ...next() }) }
        : next,
    ],
    setupClient: (client: {
      on(event: string, listener: (status: number, bytes: number, ms: number) => void): void;
    }) => {
      client.on('response', (status: number, _bytes: number, ms: number) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
        options.latencies?.push(ms);
      });
    },
  } as unknown as autocannon.Options);
  const errors =
    result.errors +
    result.timeouts +
    Object.entries(statuses)
      .filter(([s]) => Number(s) >= 300 || Number(s) < 200)
      .reduce((n, [, c]) => n + c, 0);
  process.stderr.write(`${name}: done\n`);
  return {
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
    statuses,
  };
}
