import { collectDefaultMetrics, type Registry } from 'prom-client';

/**
 * prom-client's totals of the active handles, requests and resources are gauges named `_total`, a
 * suffix Prometheus and OpenMetrics keep for counters (a `rate()` over one reads it as a counter).
 * The same counts by type (`nodejs_active_handles{type}` and the others) stay, and add up to them.
 */
export const LEFT_OUT_RUNTIME_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
] as const;

/** Node's process and runtime series (prom-client's default set), no gauge named as a counter. */
export function collectRuntimeMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  for (const name of LEFT_OUT_RUNTIME_GAUGES) registry.removeSingleMetric(name);
}
