import type { Metric, Registry } from 'prom-client';

export const REQUEST_DURATION = 'http_server_request_duration_seconds';

/** OpenTelemetry's advice for `http.server.request.duration`, in seconds. */
const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

interface SeriesLabels {
  http_request_method: string;
  http_route: string;
  http_response_status_code: string;
}

/** One method, route and status: counts per bucket (not cumulative), the sum and the count. */
class Series {
  readonly buckets = new Float64Array(BOUNDS.length);
  sum = 0;
  count = 0;

  constructor(readonly labels: SeriesLabels) {}

  observe(seconds: number): void {
    let i = 0;
    while (i < BOUNDS.length && seconds > BOUNDS[i]) i++;
    if (i < BOUNDS.length) this.buckets[i]++;
    this.sum += seconds;
    this.count++;
  }
}

/**
 * `http_server_request_duration_seconds`, as prom-client's Histogram writes it (text format and
 * cluster aggregation alike), at a fraction of its cost a request: prom-client builds and hashes
 * the label set on every observation, a microsecond each, where a request here finds its series
 * by route, method and status in three map look-ups and adds to plain numbers.
 */
export class RequestDurationHistogram {
  readonly name = REQUEST_DURATION;
  readonly help = 'Duration of HTTP server requests, by method, route template and status';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly byRoute = new Map<string, Map<string, Map<number, Series>>>();
  private readonly all: Series[] = [];

  register(registry: Registry): void {
    registry.registerMetric(this as unknown as Metric);
  }

  /** `route` is the template, or null when no route matched (labelled `unmatched`). */
  observe(method: string, route: string | null, status: number, seconds: number): void {
    const template = route ?? 'unmatched';
    let byMethod = this.byRoute.get(template);
    if (!byMethod) this.byRoute.set(template, (byMethod = new Map<string, Map<number, Series>>()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map<number, Series>()));
    let series = byStatus.get(status);
    if (!series) {
      series = new Series({
        http_request_method: method,
        http_route: template,
        http_response_status_code: String(status),
      });
      byStatus.set(status, series);
      this.all.push(series);
    }
    series.observe(seconds);
  }

  /** The same shape as prom-client's Histogram#get. */
  get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: object[] }> {
    const values: object[] = [];
    const bucket = `${this.name}_bucket`;
    for (const series of this.all) {
      let cumulative = 0;
      for (let i = 0; i < BOUNDS.length; i++) {
        cumulative += series.buckets[i];
        values.push({ labels: { ...series.labels, le: BOUNDS[i] }, value: cumulative, metricName: bucket });
      }
      values.push({ labels: { ...series.labels, le: '+Inf' }, value: series.count, metricName: bucket });
      values.push({ labels: series.labels, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: series.labels, value: series.count, metricName: `${this.name}_count` });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }
}
