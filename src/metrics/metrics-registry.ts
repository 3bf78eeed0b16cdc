import { Counter, Registry } from 'prom-client';
import { registerBacklogGauges, registerDatabaseGauge, type Backlog } from './backlog-gauges';
import { RequestDurations } from './request-duration';
import { collectRuntimeMetrics } from './runtime-metrics';

export interface MetricSources {
  outboxBacklog(): Promise<Backlog>;
  webhookBacklog(): Promise<Backlog>;
  /** How long this database's oldest writer has held the events API's horizon back (contract §16). */
  eventsHorizonLag(): Promise<number>;
  /** A backlog could not be read: its series are left out of this scrape. */
  readFailed(error: Error): void;
}

export interface ServiceMetrics {
  registry: Registry;
  requests: RequestDurations;
  webhookAttempts: Counter<'outcome'>;
  rateLimitRefusals: Counter;
}

/**
 * Every series the service exposes (contract §15), in a registry of its own (tests run several
 * apps in one process). Counters and the histogram add up across cluster workers; the backlog
 * gauges, read from the shared database, do not.
 */
export function createServiceMetrics(sources: MetricSources): ServiceMetrics {
  const registry = new Registry();
  collectRuntimeMetrics(registry);
  const requests = new RequestDurations(registry);
  registerBacklogGauges(
    registry,
    {
      count: { name: 'outbox_jobs', help: 'Outbox jobs by state: pending, or failed (given up)', label: 'state' },
      age: { name: 'outbox_oldest_pending_age_seconds', help: 'Age of the oldest pending outbox job (0 when none)' },
    },
    () => sources.outboxBacklog(),
    (error) => sources.readFailed(error),
  );
  registerBacklogGauges(
    registry,
    {
      count: {
        name: 'webhook_deliveries',
        help: 'Outbound webhook deliveries by status: pending, or failed (retries used up)',
        label: 'status',
      },
      age: {
        name: 'webhook_oldest_pending_age_seconds',
        help: 'Age of the oldest pending webhook delivery (0 when none)',
      },
    },
    () => sources.webhookBacklog(),
    (error) => sources.readFailed(error),
  );
  registerDatabaseGauge(
    registry,
    {
      name: 'events_horizon_lag_seconds',
      help: "Age of this database's oldest transaction that holds the events API back (0 when none)",
    },
    async () => [{ labels: {}, value: await sources.eventsHorizonLag() }],
    (error) => sources.readFailed(error),
  );
  const webhookAttempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Attempts to deliver a webhook message, by outcome: succeeded (a 2xx in time) or failed',
    labelNames: ['outcome'],
    registers: [registry],
  });
  // Both series from the start, so a rate over them is defined before the first failure.
  webhookAttempts.labels('succeeded').inc(0);
  webhookAttempts.labels('failed').inc(0);
  const rateLimitRefusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused by the per-key rate limit (429 Too many requests)',
    registers: [registry],
  });
  return { registry, requests, webhookAttempts, rateLimitRefusals };
}
