import { Histogram, type Registry } from 'prom-client';

export const REQUEST_DURATION = 'http_server_request_duration_seconds';

/** OpenTelemetry's advice for `http.server.request.duration`, in seconds. */
const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

type Label = 'http_request_method' | 'http_route' | 'http_response_status_code';
type Series = ReturnType<Histogram<Label>['labels']>;

/**
 * `http_server_request_duration_seconds` by method, route template and status: prom-client's
 * Histogram, with each labelled series kept once made, so a request does not check its labels again.
 */
export class RequestDurations {
  private readonly histogram: Histogram<Label>;
  private readonly series = new Map<string, Series>();

  constructor(registry: Registry) {
    this.histogram = new Histogram({
      name: REQUEST_DURATION,
      help: 'Duration of HTTP server requests, by method, route template and status',
      labelNames: ['http_request_method', 'http_route', 'http_response_status_code'],
      buckets: BOUNDS,
      registers: [registry],
    });
  }

  /** `route` is the template, or null when no route matched (labelled `unmatched`). */
  observe(method: string, route: string | null, status: number, seconds: number): void {
    const key = `${status} ${method} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      series = this.histogram.labels(method, route ?? 'unmatched', String(status));
      this.series.set(key, series);
    }
    series.observe(seconds);
  }
}
