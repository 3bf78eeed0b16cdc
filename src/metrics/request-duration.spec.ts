import { Registry } from 'prom-client';
import { REQUEST_DURATION, RequestDurations } from './request-duration';

describe('RequestDurations', () => {
  it('counts each method, route template and status as its own series; no route is `unmatched`', async () => {
    const registry = new Registry();
    const durations = new RequestDurations(registry);
    durations.observe('POST', '/orders/integrations/partner/webhook', 201, 0.004);
    durations.observe('POST', '/orders/integrations/partner/webhook', 201, 0.3);
    durations.observe('POST', '/orders/integrations/partner/webhook', 409, 0.02);
    durations.observe('GET', null, 404, 0.001);
    const text = await registry.metrics();
    const webhook = 'http_request_method="POST",http_route="/orders/integrations/partner/webhook"';
    expect(text).toContain(`# TYPE ${REQUEST_DURATION} histogram`);
    expect(text).toContain(`${REQUEST_DURATION}_count{${webhook},http_response_status_code="201"} 2`);
    expect(text).toContain(`${REQUEST_DURATION}_bucket{le="0.005",${webhook},http_response_status_code="201"} 1`);
    expect(text).toContain(`${REQUEST_DURATION}_sum{${webhook},http_response_status_code="201"} 0.304`);
    expect(text).toContain(`${REQUEST_DURATION}_count{${webhook},http_response_status_code="409"} 1`);
    expect(text).toContain(
      `${REQUEST_DURATION}_count{http_request_method="GET",http_route="unmatched",http_response_status_code="404"} 1`,
    );
  });

  it('labels a method OpenTelemetry does not know `_OTHER`, and keeps the ones it knows', async () => {
    const registry = new Registry();
    const durations = new RequestDurations(registry);
    for (const method of ['PROPFIND', 'MKCOL', 'M-SEARCH', 'get']) durations.observe(method, null, 404, 0.001);
    for (const method of ['QUERY', 'TRACE', 'CONNECT']) durations.observe(method, null, 404, 0.001);
    const text = await registry.metrics();
    const count = (method: string) =>
      `${REQUEST_DURATION}_count{http_request_method="${method}",http_route="unmatched",http_response_status_code="404"}`;
    expect(text).toContain(`${count('_OTHER')} 4`);
    for (const method of ['QUERY', 'TRACE', 'CONNECT']) expect(text).toContain(`${count(method)} 1`);
    expect(text).not.toMatch(/PROPFIND|MKCOL|M-SEARCH|"get"/);
  });
});
