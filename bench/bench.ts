/**
 * npm run bench [-- --json FILE]
 * Starts the built service on a fresh database (DATABASE_URL's server, else the embedded one),
 * seeds it, measures four scenarios at 50 connections with autocannon, checks the invariants,
 * and prints a table. BENCH_DURATION (seconds, default 10) sets each scenario's length.
 */
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { freshDatabase, settle, sql } from './database';
import { CpuMeter, perRequestUs } from './cpu-meter';
import { checkInvariants } from './invariants';
import { CONNECTIONS, DURATION, run, WARMUP, type ScenarioResult } from './load';
import { measureReference, share } from './reference';
import { metricsOn, peakRss, startService, stopService, waitHealthy } from './service-process';
import { BenchReceiver } from './webhook-receiver';
import { scenarioRequests, seedData } from './workload';

const jsonOut = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : undefined;
// BENCH_ONLY=admin_list,site_me runs a subset.
const only = process.env.BENCH_ONLY?.split(',');
// BENCH_HTTP_ADAPTER=express runs the service on Express (the default is Fastify).
const HTTP_PLATFORM = process.env.BENCH_HTTP_ADAPTER ?? process.env.HTTP_ADAPTER ?? 'fastify';

async function main(): Promise<void> {
  const { url, cleanup } = await freshDatabase();
  const port = 3900 + Math.floor(Math.random() * 90);
  const service = startService(url, port);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(base, service);
    const seed = await seedData(base);
    const results: Record<string, ScenarioResult> = {};
    const sent: string[] = [];
    let subscribedWarmup: ScenarioResult | undefined;
    let subscribedAt = '';
    const cpu = new CpuMeter(service.pid!, url);

    const receiver = new BenchReceiver();
    const scenarios = scenarioRequests(seed, sent);
    // A database that has been running for a while has orders and the statistics autovacuum keeps;
    // a fresh one has neither, and its plans would be made for empty tables. Warm up, then ANALYZE.
    const warmup = WARMUP > 0 ? await run(base, 'warmup', scenarios.webhook_unique, WARMUP) : undefined;
    await sql(url, 'ANALYZE');
    for (const [name, next] of Object.entries(scenarios)) {
      if (only && !only.includes(name)) continue;
      // The write scenarios leave thousands of fresh rows; autovacuum would catch up within a
      // minute in steady state. Settle them now so the read scenarios measure that state.
      if (name === 'admin_list') await settle(url);
      // From here on the brand has one endpoint for order.created: each new order is a message too.
      // Its events, messages and deliveries start from empty tables; warm them up and ANALYZE too,
      // else the plans made for empty tables scan them whole on every order and claim.
      if (name === 'webhook_unique_subscribed') {
        await seed.subscribe(await receiver.start());
        // An order whose statement began after this saw the endpoint: it must reach the receiver, once.
        subscribedAt = String((await sql(url, `SELECT now()::text AS at`)).rows[0].at);
        if (WARMUP > 0) {
          subscribedWarmup = await run(base, 'warmup (subscribed)', next, WARMUP);
          await sql(url, 'ANALYZE');
          receiver.forgetLags();
        }
      }
      const before = await cpu.sample();
      results[name] = await run(base, name, next);
      const answered = Object.values(results[name].statuses).reduce((n, c) => n + c, 0);
      results[name].cpuUs = perRequestUs(before, await cpu.sample(), answered);
    }
    const subscribed = results.webhook_unique_subscribed
      ? await awaitDeliveries(receiver, url, subscribedAt)
      : undefined;
    await receiver.stop();

    const peakRssMb = peakRss(service.pid!);
    // Requests cut off at the end of a scenario may still be committing: check once the service is down.
    await stopService(service);
    const writes = [
      warmup,
      results.webhook_unique,
      results.webhook_dup30,
      subscribedWarmup,
      results.webhook_unique_subscribed,
    ].filter((r) => r !== undefined);
    const created = writes.reduce((n, r) => n + (r.statuses['201'] ?? 0), 0);
    const webhookRuns = writes.length;
    const invariants = await checkInvariants(url, created, webhookRuns * CONNECTIONS);
    const reference =
      results.admin_list && process.env.BENCH_REFERENCE !== '0'
        ? await measureReference(url, scenarios.admin_list)
        : undefined;
    report(results, peakRssMb, invariants, reference, subscribed);
    if (jsonOut) {
      const summary = (r: ScenarioResult) => ({
        reqPerSec: r.reqPerSec,
        p50: r.p50,
        p99: r.p99,
        errors: r.errors,
        cpuUs: r.cpuUs,
      });
      const scenarios = Object.fromEntries(Object.entries(results).map(([name, r]) => [name, summary(r)]));
      const referenceJson = reference && {
        admin_list: summary(reference),
        serviceShare: share(results.admin_list, reference),
      };
      writeFileSync(
        jsonOut,
        `${JSON.stringify({ httpPlatform: HTTP_PLATFORM, scenarios, peakRssMb, invariants, reference: referenceJson, subscribed }, null, 2)}\n`,
      );
    }
    if (!invariants.ok || (subscribed && !subscribed.exactlyOnce)) process.exitCode = 1;
  } finally {
    await stopService(service);
    await cleanup();
  }
}

/**
 * Waits (at most a minute) until the receiver has every order.created message the database holds
 * and no order has committed since the last look; then, by identity: each order begun after the
 * subscription has exactly one message, no order two, each message arrived (by webhook-id) once.
 */
async function awaitDeliveries(receiver: BenchReceiver, url: string, subscribedAt: string) {
  const read = async () => {
    const { rows } = await sql(
      url,
      `SELECT ARRAY(SELECT id FROM orders WHERE created_at >= $1::timestamptz) AS since,
              ARRAY(SELECT (payload->'data'->>'orderId')::int FROM webhook_messages
                     WHERE event_type = 'order.created') AS messaged`,
      [subscribedAt],
    );
    return { since: rows[0].since as number[], messaged: rows[0].messaged as number[] };
  };
  const deadline = Date.now() + 60_000;
  let stored = await read();
  for (let previous = -1; Date.now() < deadline;) {
    if (receiver.ids.size >= stored.messaged.length && stored.since.length === previous) break;
    previous = stored.since.length;
    await new Promise((r) => setTimeout(r, 300));
    stored = await read();
  }
  const messaged = new Set(stored.messaged);
  const unmessaged = stored.since.filter((id) => !messaged.has(id)).length;
  const messagedTwice = stored.messaged.length - messaged.size;
  const received = new Set(receiver.orderIds);
  const unreceived = [...messaged].filter((id) => !received.has(id)).length;
  const duplicates = receiver.duplicates();
  return {
    created: stored.since.length,
    messages: stored.messaged.length,
    delivered: receiver.ids.size,
    duplicates,
    exactlyOnce: unmessaged === 0 && messagedTwice === 0 && unreceived === 0 && duplicates === 0,
    lagP99Ms: receiver.lagP99(),
  };
}

function report(
  results: Record<string, ScenarioResult>,
  peakRssMb: number,
  invariants: Awaited<ReturnType<typeof checkInvariants>>,
  reference: ScenarioResult | undefined,
  subscribed: Awaited<ReturnType<typeof awaitDeliveries>> | undefined,
) {
  const rows = Object.entries(results).map(
    ([name, r]) =>
      `| ${name.padEnd(15)} | ${String(r.reqPerSec).padStart(7)} | ${String(r.p50).padStart(6)} | ${String(r.p99).padStart(6)} | ${String(r.errors).padStart(6)} | ${cpuColumn(r)} | ${JSON.stringify(r.statuses)}`,
  );
  process.stdout.write(
    [
      '',
      `${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, HTTP platform ${HTTP_PLATFORM}, ${CONNECTIONS} connections, ${DURATION} s per scenario${metricsOn() ? ', metrics on (BENCH_METRICS)' : ''}`,
      '| scenario        |   req/s | p50 ms | p99 ms | errors | CPU µs/req: service, PostgreSQL | statuses',
      '|-----------------|---------|--------|--------|--------|---------------------------------|---------',
      ...rows,
      `peak RSS of the service: ${peakRssMb} MB`,
      ...(reference
        ? [
            `admin_list on a bare node:http + pg server with the same statements: ${reference.reqPerSec} req/s (p99 ${reference.p99} ms);` +
              ` the service reached ${Math.round(100 * share(results.admin_list, reference))} % of it`,
          ]
        : []),
      ...(subscribed
        ? [
            `webhook_unique_subscribed: ${Math.round((100 * results.webhook_unique_subscribed.reqPerSec) / (results.webhook_unique?.reqPerSec ?? NaN))} % of webhook_unique;` +
              ` ${subscribed.created} orders since the subscription, ${subscribed.messages} messages, ${subscribed.delivered} delivered, ${subscribed.duplicates} twice;` +
              ` delivery lag p99 ${subscribed.lagP99Ms} ms`,
          ]
        : []),
      `invariants: ${invariants.ok ? 'OK' : 'BROKEN'} ${JSON.stringify(invariants)}`,
      '',
    ].join('\n'),
  );
}

function cpuColumn(r: ScenarioResult): string {
  return (r.cpuUs ? `${r.cpuUs.service}, ${r.cpuUs.database}` : 'n/a').padStart(31);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
