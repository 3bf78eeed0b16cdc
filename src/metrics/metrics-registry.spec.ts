import { AggregatorRegistry } from 'prom-client';
import type { Backlog } from './backlog-gauges';
import { createServiceMetrics } from './metrics-registry';

const backlog = (pending: number, failed: number, age: number): Backlog => ({
  pending,
  failed,
  oldestPendingAgeSeconds: age,
});

function worker(
  outbox: () => Promise<Backlog>,
  webhooks: () => Promise<Backlog> = outbox,
  eventsHorizonLag: () => Promise<number> = () => Promise.resolve(7.25),
) {
  const readFailed = jest.fn();
  const sources = { outboxBacklog: outbox, webhookBacklog: webhooks, eventsHorizonLag, readFailed };
  return { metrics: createServiceMetrics(sources), readFailed };
}

const line = (text: string, sample: string) => text.split('\n').find((l) => l.startsWith(`${sample} `));

describe('the service metrics', () => {
  it('under the cluster, sums counters and the histogram over workers but takes the database gauges once', async () => {
    const reads = jest.fn(() => Promise.resolve(backlog(3, 1, 42.5)));
    const a = worker(reads);
    const b = worker(reads);
    a.metrics.requests.observe('POST', '/orders/integrations/partner/webhook', 201, 0.02);
    a.metrics.requests.observe('POST', '/orders/integrations/partner/webhook', 201, 0.03);
    b.metrics.requests.observe('POST', '/orders/integrations/partner/webhook', 201, 0.04);
    a.metrics.webhookAttempts.labels('failed').inc();
    b.metrics.webhookAttempts.labels('failed').inc(2);
    b.metrics.rateLimitRefusals.inc();

    const text = await AggregatorRegistry.aggregate([
      await a.metrics.registry.getMetricsAsJSON(),
      await b.metrics.registry.getMetricsAsJSON(),
    ]).metrics();

    const series =
      'http_request_method="POST",http_route="/orders/integrations/partner/webhook",http_response_status_code="201"';
    expect(line(text, `http_server_request_duration_seconds_count{${series}}`)).toMatch(/ 3$/);
    expect(line(text, `http_server_request_duration_seconds_bucket{le="0.025",${series}}`)).toMatch(/ 1$/);
    expect(line(text, `http_server_request_duration_seconds_bucket{le="0.05",${series}}`)).toMatch(/ 3$/);
    expect(line(text, 'webhook_delivery_attempts_total{outcome="failed"}')).toMatch(/ 3$/);
    expect(line(text, 'webhook_delivery_attempts_total{outcome="succeeded"}')).toMatch(/ 0$/);
    expect(line(text, 'rate_limit_refusals_total')).toMatch(/ 1$/);
    expect(line(text, 'outbox_jobs{state="pending"}')).toMatch(/ 3$/);
    expect(line(text, 'outbox_jobs{state="failed"}')).toMatch(/ 1$/);
    expect(line(text, 'outbox_oldest_pending_age_seconds')).toMatch(/ 42.5$/);
    expect(line(text, 'webhook_deliveries{status="pending"}')).toMatch(/ 3$/);
    expect(line(text, 'webhook_oldest_pending_age_seconds')).toMatch(/ 42.5$/);
    expect(line(text, 'events_horizon_lag_seconds')).toMatch(/ 7.25$/);
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it("reads each backlog once a scrape, and leaves a backlog's series out when it cannot be read", async () => {
    const outbox = jest.fn(() => Promise.resolve(backlog(0, 0, 0)));
    const webhooks = jest.fn(() => Promise.reject(new Error('connection refused')));
    const lag = jest.fn(() => Promise.reject(new Error('too many clients')));
    const { metrics, readFailed } = worker(outbox, webhooks, lag);

    const text = await metrics.registry.metrics();

    expect(outbox).toHaveBeenCalledTimes(1);
    expect(webhooks).toHaveBeenCalledTimes(1);
    expect(readFailed).toHaveBeenCalledWith(expect.objectContaining({ message: 'connection refused' }));
    expect(line(text, 'outbox_oldest_pending_age_seconds')).toMatch(/ 0$/);
    expect(text).toContain('# TYPE webhook_deliveries gauge');
    expect(text).not.toMatch(/^webhook_deliveries\{/m);
    expect(text).not.toMatch(/^webhook_oldest_pending_age_seconds /m);
    expect(readFailed).toHaveBeenCalledWith(expect.objectContaining({ message: 'too many clients' }));
    expect(text).toContain('# TYPE events_horizon_lag_seconds gauge');
    expect(text).not.toMatch(/^events_horizon_lag_seconds /m);
  });

  it('names no gauge `_total`: the runtime totals are left out, their counts by type kept', async () => {
    const { metrics } = worker(() => Promise.resolve(backlog(0, 0, 0)));
    const all = await metrics.registry.getMetricsAsJSON();
    const gauges = all.filter((metric) => String(metric.type) === 'gauge').map((metric) => metric.name);
    expect(gauges.filter((name) => name.endsWith('_total'))).toEqual([]);
    expect(gauges).toEqual(expect.arrayContaining(['nodejs_active_handles', 'nodejs_active_resources']));
  });
});
