import { Histogram, Registry } from 'prom-client';
import { REQUEST_DURATION, RequestDurationHistogram } from './request-duration';

const LABELS = ['http_request_method', 'http_route', 'http_response_status_code'];
const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** Sample lines with their labels in one order, so two writers' texts compare line for line. */
function samples(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^(\w+)(?:\{(.*)\})? (.+)$/.exec(line)!;
      const labels = (match[2] ?? '').split(',').filter(Boolean).sort().join(',');
      return `${match[1]}{${labels}} ${Number(match[3])}`;
    })
    .sort();
}

describe('RequestDurationHistogram', () => {
  const observations: Array<[string, string | null, number, number]> = [
    ['POST', '/orders/integrations/partner/webhook', 201, 0.004],
    ['POST', '/orders/integrations/partner/webhook', 201, 0.005],
    ['POST', '/orders/integrations/partner/webhook', 201, 0.0051],
    ['POST', '/orders/integrations/partner/webhook', 409, 0.3],
    ['GET', '/orders/admin/:orderId', 200, 12],
    ['GET', null, 404, 0.001],
    ['GET', '/health', 200, 10],
  ];

  it("writes what prom-client's own Histogram writes for the same observations", async () => {
    const ours = new Registry();
    const histogram = new RequestDurationHistogram();
    histogram.register(ours);
    const theirs = new Registry();
    const reference = new Histogram({
      name: REQUEST_DURATION,
      help: histogram.help,
      labelNames: LABELS,
      buckets: BOUNDS,
      registers: [theirs],
    });
    for (const [method, route, status, seconds] of observations) {
      histogram.observe(method, route, status, seconds);
      reference.observe(
        { http_request_method: method, http_route: route ?? 'unmatched', http_response_status_code: String(status) },
        seconds,
      );
    }
    const [ourText, theirText] = [await ours.metrics(), await theirs.metrics()];
    expect(samples(ourText)).toEqual(samples(theirText));
    expect(ourText).toContain(`# TYPE ${REQUEST_DURATION} histogram`);
    expect(ourText).toContain(
      `${REQUEST_DURATION}_count{http_request_method="GET",http_route="unmatched",http_response_status_code="404"} 1`,
    );
  });
});
