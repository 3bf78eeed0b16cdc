import { collectDefaultMetrics, type Metric, type Registry } from 'prom-client';

/**
 * prom-client's gauges of a total count end in `_total`, a suffix Prometheus and OpenMetrics keep
 * for counters (a `rate()` over one reads it as a counter); the name without it is taken by the
 * same count by type, so each is the count over `all` types.
 */
export const RENAMED_RUNTIME_GAUGES: Readonly<Record<string, string>> = {
  nodejs_active_handles_total: 'nodejs_active_handles_all',
  nodejs_active_requests_total: 'nodejs_active_requests_all',
  nodejs_active_resources_total: 'nodejs_active_resources_all',
};

/** Node's process and runtime series (prom-client's default set), its gauges named as gauges. */
export function collectRuntimeMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  for (const [theirs, ours] of Object.entries(RENAMED_RUNTIME_GAUGES)) {
    const gauge = registry.getSingleMetric(theirs);
    if (!gauge) continue; // prom-client leaves out what this Node cannot count
    registry.removeSingleMetric(theirs);
    registry.registerMetric(renamed(gauge, ours));
  }
}

/** The same gauge read under another name; the cluster's primary sums it over workers by its aggregator. */
function renamed(gauge: Metric, name: string): Metric {
  const { help, type, aggregator } = gauge as unknown as { help: string; type: string; aggregator: string };
  return {
    name,
    help,
    type,
    aggregator,
    get: async () => ({ ...(await gauge.get()), name }),
  } as unknown as Metric;
}
