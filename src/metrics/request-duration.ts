import { Histogram, type Registry } from 'prom-client';

export const REQUEST_DURATION = 'http_server_request_duration_seconds';

/** OpenTelemetry's advice for `http.server.request.duration`, in seconds. */
const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * The methods OpenTelemetry's HTTP conventions know (RFC 9110's, PATCH and QUERY); any other is
 * `_OTHER`, so a client cannot add series by inventing methods (Node's parser accepts WebDAV's
 * and a dozen more).
 */
const KNOWN_METHODS = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'QUERY',
  'TRACE',
]);
export const OTHER_METHOD = '_OTHER';

export function methodLabel(method: string): string {
  return KNOWN_METHODS.has(method) ? method : OTHER_METHOD;
}

type Label = 'http_request_method' | 'http_route' | 'http_response_status_code';
type Series = ReturnType<Histogram<Label>['labels']>;
/** Keyed by route template; null when no route matched. */
type ByRoute = Map<string | null, Series>;
type ByMethod = Map<string, ByRoute>;

/**
 * `http_server_request_duration_seconds` by method, route template and status: prom-client's
 * Histogram, with the `labels()` result kept per status, method and route, so a request after the
 * first of its kind skips that call (its label checks and the closures it makes) and allocates
 * nothing here. prom-client's `observe` still converts, validates and hashes the labels each time.
 */
export class RequestDurations {
  private readonly histogram: Histogram<Label>;
  private readonly byStatus = new Map<number, ByMethod>();

  constructor(registry: Registry) {
    this.histogram = new Histogram({
      name: REQUEST_DURATION,
      help: 'Duration of HTTP server requests, by method, route template and status',
      labelNames: ['http_request_method', 'http_route', 'http_response_status_code'],
      buckets: BOUNDS,
      registers: [registry],
    });
  }

  /**
   * `route` is the template, or null when no route matched (labelled `unmatched`). The cache is keyed
   * by the method as received: Node's parser bounds those to its own list.
   */
  observe(method: string, route: string | null, status: number, seconds: number): void {
    let methods = this.byStatus.get(status);
    if (methods === undefined) this.byStatus.set(status, (methods = new Map<string, ByRoute>()));
    let routes = methods.get(method);
    if (routes === undefined) methods.set(method, (routes = new Map<string | null, Series>()));
    let series = routes.get(route);
    if (series === undefined) {
      series = this.histogram.labels(methodLabel(method), route ?? 'unmatched', String(status));
      routes.set(route, series);
    }
    series.observe(seconds);
  }
}
