import { Server, type AddressInfo } from 'node:net';
import { Client } from 'pg';
import request from 'supertest';
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher';
import { eventually } from './support/eventually';
import { createProduct, issueKey, type IssuedKey } from './support/fixtures';
import { Scrape } from './support/prometheus-scrape';
import {
  freePort,
  serviceEnv,
  spawnService,
  stopService,
  waitForHealth,
  type ServiceProcess,
} from './support/service-process';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { bearer } from './support/test-app';
import { createTestDatabase, withClient } from './support/test-database';
import { WebhookReceiver } from './support/webhook-receiver';

const DURATION = 'http_server_request_duration_seconds';
const WEBHOOK_ROUTE = '/orders/integrations/partner/webhook';
const BUYER = { fullName: 'Fedorova Olga', phone: '+79005550000', email: 'olga.fedorova@example.com' };
const BURST = 20;
const QUIET = { HOST: '127.0.0.1', WEBHOOK_WORKER: 'false', OUTBOX_WORKER: 'false' };
const SECRETS_ENCRYPTION_KEY = 'cd'.repeat(32);
/** OpenTelemetry's known HTTP methods; any other is counted as `_OTHER`. */
const KNOWN_METHODS = [
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
  '_OTHER',
];

let seq = 0;

/** The ports of the servers listening in this process (the suite's own, supertest's, the app's). */
function listeningPorts(): number[] {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles
    .filter((handle): handle is Server => handle instanceof Server && handle.listening)
    .map((server) => (server.address() as AddressInfo).port);
}

/** Prometheus metrics (contract §15), scraped on METRICS_PORT and read by a text-format parser. */
describe('metrics', () => {
  let suite: Suite;
  let receiver: WebhookReceiver;
  let metricsUrl: string;
  let brand: number;
  let storefront: IssuedKey;
  const keys: string[] = [];
  let portsBeforeStart: number[];
  let portsOpenedByStart: number[];
  let appStopped = false;

  const http = () => suite.t.http;
  const scrape = () => Scrape.of(metricsUrl);
  const series = (method: string, route: string, status: number) => ({
    http_request_method: method,
    http_route: route,
    http_response_status_code: String(status),
  });

  const storefrontOrder = () =>
    request(http())
      .post(WEBHOOK_ROUTE)
      .set(storefront.headers)
      .send({
        partnerOrderId: `MX-${process.pid}-${++seq}`,
        recipient: BUYER,
        items: [{ article: 'SF-CAP', size: 'One', quantity: 1 }],
      });

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    portsBeforeStart = listeningPorts();
    suite = await openSuite({
      env: {
        ...QUIET,
        METRICS_PORT: String(port),
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        SECRETS_ENCRYPTION_KEY,
        WEBHOOK_TIMEOUT_MS: '1500',
        WEBHOOK_RETRY_SCHEDULE: '60,60',
        RATE_LIMIT_PER_SECOND: '100',
        RATE_LIMIT_BURST: String(BURST),
      },
    });
    portsOpenedByStart = listeningPorts().filter((p) => !portsBeforeStart.includes(p));
    brand = await suite.fx.brand();
    storefront = await issueKey(suite.fx, brand, { permissions: ['orders.create_partner'] });
    keys.push(storefront.key);
    await createProduct(suite.fx, brand, {
      article: 'CAP',
      storefrontArticle: 'SF-CAP',
      priceKopeks: 15000,
      sizes: [{ name: 'One', stock: 1000 }],
    });
  });
  afterAll(async () => {
    await closeSuite(appStopped ? { db: suite.db } : suite);
    await receiver?.stop();
  });

  // Without METRICS_PORT nothing listens: platform.e2e-spec.
  it('listens on METRICS_PORT, and on no other port, serving GET /metrics there alone', async () => {
    const port = Number(new URL(metricsUrl).port);
    expect(portsOpenedByStart).toEqual([port]);
    expect((await fetch(metricsUrl)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/elsewhere`)).status).toBe(404);
  });

  it('serves every series of the contract with its type, in Prometheus text format', async () => {
    expect((await scrape()).types()).toMatchObject({
      [DURATION]: 'histogram',
      outbox_jobs: 'gauge',
      outbox_oldest_pending_age_seconds: 'gauge',
      webhook_deliveries: 'gauge',
      webhook_oldest_pending_age_seconds: 'gauge',
      events_horizon_lag_seconds: 'gauge',
      webhook_delivery_attempts_total: 'counter',
      rate_limit_refusals_total: 'counter',
      process_cpu_seconds_total: 'counter',
      nodejs_eventloop_lag_seconds: 'gauge',
      nodejs_active_handles: 'gauge',
    });
    const page = await scrape();
    // `_total` is a counter's suffix: a gauge named so reads as one.
    const gauges = Object.entries(page.types()).filter(([, type]) => type === 'gauge');
    expect(gauges.map(([name]) => name).filter((name) => name.endsWith('_total'))).toEqual([]);
    for (const state of ['pending', 'failed']) expect(page.value('outbox_jobs', { state })).toBeDefined();
    for (const status of ['pending', 'failed']) expect(page.value('webhook_deliveries', { status })).toBeDefined();
    for (const outcome of ['succeeded', 'failed'])
      expect(page.value('webhook_delivery_attempts_total', { outcome })).toBeDefined();
  });

  it('N storefront orders answered 201 add exactly N to the count of POST, the webhook route, 201', async () => {
    const created = series('POST', WEBHOOK_ROUTE, 201);
    const before = (await scrape()).histogramCount(DURATION, created);
    const n = 7;
    for (let i = 0; i < n; i++) await storefrontOrder().expect(201);
    // A refused order is counted under its own status, not 201.
    await request(http()).post(WEBHOOK_ROUTE).set(storefront.headers).send({ items: [] }).expect(400);

    // Each request is counted once its answer has gone: wait for the last, then it must be exactly N.
    await eventually(async () => expect((await scrape()).histogramCount(DURATION, created) - before).toBe(n));
    const after = await scrape();
    expect(after.histogramCount(DURATION, created) - before).toBe(n);
    const sample = after.histogram(DURATION, created)!;
    expect(sample.buckets['+Inf']).toBe(sample.count);
    expect(sample.sum).toBeGreaterThan(0);
    expect(after.histogramCount(DURATION, series('POST', WEBHOOK_ROUTE, 400))).toBe(1);
  });

  it('labels a 404 without a route `unmatched`, and /metrics on the API port is one of them', async () => {
    const unmatched = series('GET', 'unmatched', 404);
    const before = (await scrape()).histogramCount(DURATION, unmatched);
    const onApiPort = await request(http()).get('/metrics').expect(404);
    expect(onApiPort.body.error).toBe('Not found');
    await request(http()).get('/no/such/place/12345').expect(404);
    await eventually(async () => expect((await scrape()).histogramCount(DURATION, unmatched) - before).toBe(2));
    expect((await scrape()).labelValues().some((value) => value.includes('12345'))).toBe(false);
  });

  it('labels a body refused before routing (malformed JSON) with its route, never `unmatched`', async () => {
    const refused = series('POST', WEBHOOK_ROUTE, 400);
    const before = (await scrape()).histogramCount(DURATION, refused);
    const answer = await request(http())
      .post(WEBHOOK_ROUTE)
      .set(storefront.headers)
      .set('Content-Type', 'application/json')
      .send('{"partnerOrderId": ')
      .expect(400);
    expect(answer.body.error).toBe('Malformed JSON body');
    await eventually(async () => expect((await scrape()).histogramCount(DURATION, refused) - before).toBe(1));
    expect((await scrape()).histogramCount(DURATION, series('POST', 'unmatched', 400))).toBe(0);
  });

  it("labels a route with a path id by its template, never the request's path", async () => {
    const reader = await issueKey(suite.fx, brand, { permissions: ['orders.read'] });
    keys.push(reader.key);
    await request(http()).get('/orders/admin/987654').set(reader.headers).expect(404);
    await eventually(async () =>
      expect((await scrape()).histogramCount(DURATION, series('GET', '/orders/admin/:orderId', 404))).toBe(1),
    );
    const routes = (await scrape()).series(DURATION).map((d) => d.labels.http_route);
    expect(routes.some((route) => route.includes('987654'))).toBe(false);
  });

  it('the outbox and webhook gauges show the pending and failed rows and the oldest pending age', async () => {
    const before = await scrape();
    const endpoint = await request(http())
      .post(`/admin/brands/${brand}/webhook-endpoints`)
      .set(bearer(suite.fx.admin))
      .send({ url: receiver.url('/parked'), eventTypes: ['webhook.test'] })
      .expect(201);
    await withClient(suite.db.url, async (c) => {
      await c.query(
        `INSERT INTO outbox (kind, payload, created_at, run_after, failed_at) VALUES
           ('mail.order_confirmation', '{"orderId": 1}', now() - interval '2 hours', now() + interval '1 day', NULL),
           ('mail.order_confirmation', '{"orderId": 2}', now() - interval '1 minute', now() + interval '1 day', NULL),
           ('mail.order_confirmation', '{"orderId": 3}', now() - interval '3 hours', now(), now())`,
      );
      // Parked a day ahead, so no delivery pass in this suite sends them.
      await c.query(
        `WITH m AS (
           INSERT INTO webhook_messages (msg_id, brand_id, event_type, payload)
           SELECT 'msg_metrics_' || i, $1, 'webhook.test', '{}' FROM generate_series(1, 3) AS i RETURNING id, msg_id
         )
         INSERT INTO webhook_deliveries (message_id, endpoint_id, status, next_attempt_at, created_at)
         SELECT id, $2, CASE WHEN msg_id = 'msg_metrics_3' THEN 'failed' ELSE 'pending' END,
                CASE WHEN msg_id = 'msg_metrics_3' THEN NULL ELSE now() + interval '1 day' END,
                now() - CASE WHEN msg_id = 'msg_metrics_1' THEN interval '90 minutes' ELSE interval '5 minutes' END
           FROM m`,
        [brand, endpoint.body.id],
      );
    });
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      (after.value(name, labels) ?? NaN) - (before.value(name, labels) ?? NaN);
    expect(delta('outbox_jobs', { state: 'pending' })).toBe(2);
    expect(delta('outbox_jobs', { state: 'failed' })).toBe(1);
    expect(delta('webhook_deliveries', { status: 'pending' })).toBe(2);
    expect(delta('webhook_deliveries', { status: 'failed' })).toBe(1);
    // The oldest pending rows are the planted ones (the failed outbox job is older, but not pending).
    expect(after.value('outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(7200);
    expect(after.value('outbox_oldest_pending_age_seconds')).toBeLessThan(7200 + 120);
    expect(after.value('webhook_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(5400);
    expect(after.value('webhook_oldest_pending_age_seconds')).toBeLessThan(5400 + 120);
  });

  it("events_horizon_lag_seconds is the age of this database's oldest writer; another database's counts not", async () => {
    const neighbour = await createTestDatabase({ empty: true });
    const clients = await Promise.all(
      [suite.db.url, neighbour.url].map(async (url) => {
        const client = new Client({ connectionString: url });
        await client.connect();
        return client;
      }),
    );
    const [here, elsewhere] = clients;
    try {
      await elsewhere.query('BEGIN');
      await elsewhere.query('SELECT pg_current_xact_id()');
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect((await scrape()).value('events_horizon_lag_seconds')).toBeLessThan(1);
      await here.query('BEGIN');
      await here.query('SELECT pg_current_xact_id()');
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      const held = (await scrape()).value('events_horizon_lag_seconds')!;
      expect(held).toBeGreaterThanOrEqual(1);
      expect(held).toBeLessThan(60);
      await here.query('COMMIT');
      await eventually(async () => expect((await scrape()).value('events_horizon_lag_seconds')).toBeLessThan(1));
    } finally {
      await Promise.all(clients.map((c) => c.end()));
      await neighbour.drop();
    }
  });

  it('counts each delivery attempt by its outcome, on a real delivery to a receiver', async () => {
    receiver.answer('/ok', 204);
    receiver.answer('/down', 503);
    const endpointAt = async (path: string) =>
      (
        await request(http())
          .post(`/admin/brands/${brand}/webhook-endpoints`)
          .set(bearer(suite.fx.admin))
          .send({ url: receiver.url(path), eventTypes: ['webhook.test'] })
          .expect(201)
      ).body.id as number;
    const ok = await endpointAt('/ok');
    const down = await endpointAt('/down');
    const before = await scrape();
    for (const id of [ok, down, ok])
      await request(http())
        .post(`/admin/brands/${brand}/webhook-endpoints/${id}/test`)
        .set(bearer(suite.fx.admin))
        .expect(202);
    const dispatcher = suite.t.app.get(WebhookDispatcher);
    await dispatcher.runOnce();
    await dispatcher.drain();
    expect(receiver.at('/ok')).toHaveLength(2);
    expect(receiver.at('/down')).toHaveLength(1);

    const after = await scrape();
    const delta = (outcome: string) =>
      after.value('webhook_delivery_attempts_total', { outcome })! -
      before.value('webhook_delivery_attempts_total', { outcome })!;
    expect(delta('succeeded')).toBe(2);
    expect(delta('failed')).toBe(1);
  });

  it('counts the requests the per-key rate limit refuses', async () => {
    const key = await issueKey(suite.fx, brand, { permissions: ['orders.read'] });
    keys.push(key.key);
    const before = (await scrape()).value('rate_limit_refusals_total')!;
    const answers = await Promise.all(
      Array.from({ length: BURST + 6 }, () => request(http()).get('/orders/admin/all?limit=1').set(key.headers)),
    );
    const refused = answers.filter((a) => a.status === 429).length;
    expect(refused).toBe(6);
    expect((await scrape()).value('rate_limit_refusals_total')! - before).toBe(refused);
  });

  it("no label holds a key, a token, or a buyer's name, phone or e-mail", async () => {
    const values = (await scrape()).labelValues();
    expect(values.length).toBeGreaterThan(0);
    const secrets = [...keys, suite.fx.admin.token, suite.fx.admin.csrfToken, BUYER.fullName, BUYER.phone, BUYER.email];
    for (const secret of secrets) {
      expect(values.filter((value) => value.includes(secret))).toEqual([]);
    }
    expect(values.filter((value) => /Fedorova|79005550000|example\.com|Bearer/i.test(value))).toEqual([]);
  });

  /**
   * The service as `npm start` runs it, with its request lines logged: on Express, that logger is
   * middleware mounted as a route for every path, which the app in this process (logging nothing) lacks.
   */
  describe('in the service as a process, its request lines logged', () => {
    let service: ServiceProcess | undefined;
    let serviceMetrics: string;
    const scrapeService = () => Scrape.of(serviceMetrics);
    const call = async (method: string, path: string) => (await fetch(`${service!.baseUrl}${path}`, { method })).status;

    beforeAll(async () => {
      const port = await freePort();
      serviceMetrics = `http://127.0.0.1:${port}/metrics`;
      const env = { ...QUIET, METRICS_PORT: String(port), LOG_LEVEL: 'info', SECRETS_ENCRYPTION_KEY };
      service = spawnService(await serviceEnv(suite.db.url, env));
      await waitForHealth(service);
    });
    afterAll(async () => {
      if (service) await stopService(service);
    });

    it('labels a 404 without a route `unmatched`, and a route by its template only', async () => {
      expect(await call('GET', '/no/such/place/12345')).toBe(404);
      expect(await call('GET', '/health/deeper')).toBe(404);
      expect(await call('DELETE', '/health')).toBe(404);
      expect(await call('GET', '/health')).toBe(200);
      await eventually(async () => {
        const page = await scrapeService();
        expect(page.histogramCount(DURATION, series('GET', 'unmatched', 404))).toBe(2);
        expect(page.histogramCount(DURATION, series('DELETE', 'unmatched', 404))).toBe(1);
      });
      const routes = new Set((await scrapeService()).series(DURATION).map((d) => d.labels.http_route));
      expect([...routes].sort()).toEqual(['/health', 'unmatched']);
    });

    it('labels a method OpenTelemetry does not know `_OTHER`, never as sent', async () => {
      for (const method of ['PROPFIND', 'MKCOL', 'PURGE']) expect(await call(method, '/no/such/place')).toBe(404);
      expect(await call('PROPFIND', '/health')).toBe(404);
      await eventually(async () =>
        expect((await scrapeService()).histogramCount(DURATION, series('_OTHER', 'unmatched', 404))).toBe(4),
      );
      const methods = new Set((await scrapeService()).series(DURATION).map((d) => d.labels.http_request_method));
      expect([...methods].filter((method) => !KNOWN_METHODS.includes(method))).toEqual([]);
    });
  });

  // Last: it stops the suite's app.
  it('stops listening on METRICS_PORT when the service stops', async () => {
    await suite.t.close();
    appStopped = true;
    expect(listeningPorts().filter((p) => !portsBeforeStart.includes(p))).toEqual([]);
    await expect(fetch(metricsUrl)).rejects.toThrow();
  });
});
