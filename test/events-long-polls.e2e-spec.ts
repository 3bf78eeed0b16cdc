import {
  callService,
  SERVICE_ADMIN as ADMIN,
  serviceEnv,
  spawnService,
  stopService,
  waitForHealth,
  type ServiceProcess,
} from './support/service-process';
import { createTestDatabase, type TestDatabase } from './support/test-database';

/**
 * `GET /events?waitSeconds=` (contract §20) over HTTP between two service processes on one
 * database: woken within a second by an order the other one takes, on time when nothing comes,
 * ten waiting per key, a client that hangs up freeing its place, and a stop that does not wait
 * out the polls. The rules themselves, through the service: test/medium/events-long-polls.medium-spec.ts.
 */
describe('long polls on the events API, between service processes', () => {
  let db: TestDatabase;
  let reader: ServiceProcess;
  let writer: ServiceProcess;
  let readKey: Record<string, string>;
  let orderKey: Record<string, string>;
  let seq = 0;

  const start = async () => {
    const service = spawnService(await serviceEnv(db.url, { OUTBOX_WORKER: 'false', RATE_LIMIT_BURST: '50' }));
    await waitForHealth(service);
    return service;
  };
  const poll = (after: string, waitSeconds: number, signal?: AbortSignal) =>
    fetch(`${reader.baseUrl}/events?types=order.*&after=${encodeURIComponent(after)}&waitSeconds=${waitSeconds}`, {
      headers: readKey,
      signal,
    });
  const order = () =>
    callService(
      writer,
      'POST',
      '/orders/integrations/partner/webhook',
      {
        partnerOrderId: `LP-${++seq}`,
        recipient: { fullName: 'A B', phone: '+79120000000' },
        items: [{ article: 'SF-LP', size: 'One', quantity: 1 }],
      },
      orderKey,
    );
  /** The cursor after every order event there is now. */
  const cursorNow = async () => {
    let page = (await callService(reader, 'GET', '/events?types=order.*', undefined, readKey)).body;
    while (page.items.length > 0) {
      const after = encodeURIComponent(page.nextCursor);
      page = (await callService(reader, 'GET', `/events?types=order.*&after=${after}`, undefined, readKey)).body;
    }
    return page.nextCursor as string;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    [reader, writer] = await Promise.all([start(), start()]);
    const admin = { Authorization: `Bearer ${(await callService(reader, 'POST', '/auth/login', ADMIN)).body.token}` };
    const brand = (await callService(reader, 'POST', '/admin/brands', { name: 'Polls', slug: 'polls' }, admin)).body.id;
    const key = async (permissions: string[]) => ({
      Authorization: `Bearer ${(await callService(reader, 'POST', `/admin/brands/${brand}/integration-keys`, { name: 'k', permissions }, admin)).body.key}`,
    });
    const product = {
      name: 'Scarf',
      article: 'LP',
      storefrontArticle: 'SF-LP',
      priceKopeks: 100,
      sizes: [{ name: 'One' }],
    };
    await callService(reader, 'POST', '/catalog/products', product, await key(['products.write']));
    readKey = await key(['orders.read']);
    orderKey = await key(['orders.create_partner']);
  });
  afterAll(async () => {
    await Promise.all([reader, writer].filter(Boolean).map((s) => stopService(s, 'SIGKILL')));
    await db?.drop();
  });

  it('answers a poll within a second of an order the other process took', async () => {
    const after = await cursorNow();
    const waiting = poll(after, 20).then(async (response) => ({ at: Date.now(), response }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const made = await order();
    const committedAt = Date.now();
    expect(made.status).toBe(201);
    const { at, response } = await waiting;
    expect(response.status).toBe(200);
    const page = (await response.json()) as { items: Array<{ type: string; data: { orderId: number } }> };
    expect(page.items.map((e) => e.data.orderId)).toContain(made.body.order.id);
    expect(at - committedAt).toBeLessThan(1_000);
  });

  it('answers an empty page with the same cursor when its wait is over, and refuses a wait out of 0–30', async () => {
    const after = await cursorNow();
    const started = Date.now();
    const response = await poll(after, 2);
    const elapsed = Date.now() - started;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ items: [], nextCursor: after });
    expect(elapsed).toBeGreaterThanOrEqual(1_950);
    expect(elapsed).toBeLessThan(3_000);
    for (const wrong of ['31', '-1', '1.5', '']) {
      const refused = await callService(reader, 'GET', `/events?waitSeconds=${wrong}`, undefined, readKey);
      expect(refused).toMatchObject({ status: 400, body: { details: ['waitSeconds must be an integer from 0–30'] } });
    }
  });

  it('lets a key have ten polls waiting; an eleventh is a 429, and a client that hangs up frees its place', async () => {
    const after = await cursorNow();
    const hangUp = new AbortController();
    const waits = Array.from({ length: 10 }, () => poll(after, 30, hangUp.signal).catch(() => 'hung up'));
    await new Promise((resolve) => setTimeout(resolve, 700));
    const eleventh = await poll(after, 5);
    expect(eleventh.status).toBe(429);
    expect(await eleventh.json()).toMatchObject({ error: 'Too many requests waiting' });
    expect(eleventh.headers.get('retry-after')).toBe('1');
    expect(eleventh.headers.get('ratelimit')).toMatch(/^"(burst|window)";r=\d+;t=\d+$/);
    hangUp.abort();
    expect(await Promise.all(waits)).toEqual(Array(10).fill('hung up'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const admitted = await poll(after, 1);
    expect(admitted.status).toBe(200);
  });

  it('ends its waiting polls with what it has when it stops, instead of waiting them out', async () => {
    const after = await cursorNow();
    const waiting = poll(after, 30);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = Date.now();
    const [response, code] = await Promise.all([waiting, stopService(reader, 'SIGTERM')]);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ items: [], nextCursor: after });
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
