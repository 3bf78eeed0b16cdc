import request, { type Response } from 'supertest';
import type {
  KeyRequestResponse as LoggedRequest,
  KeyUsageResponse as Usage,
} from '../src/request-log/dto/request-log.responses';
import { KEPT_429_PER_MINUTE } from '../src/request-log/request-recorder';
import { eventually } from './support/eventually';
import { createProduct, issueKey, journal, type IssuedKey } from './support/fixtures';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { serviceEnv, spawnService, stopService, waitForHealth } from './support/service-process';
import { withClient } from './support/test-database';
import { bearer } from './support/test-app';

const WEBHOOK = '/orders/integrations/partner/webhook';
const ENV = { REQUEST_LOG_FLUSH_MS: '100', RATE_LIMIT_BURST: '30', RATE_LIMIT_PER_SECOND: '1000' };
/** Long enough for several flushes: what a later flush would count twice has been written. */
const severalFlushes = () => new Promise((resolve) => setTimeout(resolve, 4 * Number(ENV.REQUEST_LOG_FLUSH_MS)));
const RECIPIENT = { fullName: 'Ivanova Maria Petrovna', phone: '+7 912 345-67-89' };

/**
 * Contract §15: the request log of an integration key, on a real database, as a brand's administrator reads it.
 * Several instances on one database, a shutdown's flush and the pruning: test/medium/request-log-instances.medium-spec.ts.
 */
describe('the request log of an integration key', () => {
  let s: Suite;
  let brand: number;
  let otherBrand: number;
  let seq = 0;

  const keysPath = (brandId = brand) => `/admin/brands/${brandId}/integration-keys`;
  const requestsOf = async (key: IssuedKey, query = ''): Promise<LoggedRequest[]> => {
    const response = await request(s.t.http)
      .get(`${keysPath()}/${key.id}/requests${query}`)
      .set(bearer(s.fx.admin))
      .expect(200);
    return response.body.items as LoggedRequest[];
  };
  const usageOf = async (key: IssuedKey): Promise<Usage> =>
    (await request(s.t.http).get(`${keysPath()}/${key.id}/usage`).set(bearer(s.fx.admin)).expect(200)).body as Usage;
  const storefrontKey = () =>
    issueKey(s.fx, brand, { name: 'Storefront', permissions: ['orders.create_partner', 'orders.read'] });
  const order = (article = 'SF-LOG') => ({
    partnerOrderId: `RL-${++seq}`,
    recipient: RECIPIENT,
    items: [{ article, size: 'M', quantity: 1 }],
  });
  /** The statuses of these answers, counted as /usage counts them. */
  const tally = (responses: Response[]) => {
    const byStatus: Record<string, number> = {};
    for (const r of responses) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    return { total: responses.length, byStatus };
  };

  beforeAll(async () => {
    s = await openSuite({ env: ENV });
    brand = await s.fx.brand();
    otherBrand = await s.fx.brand();
    await createProduct(s.fx, brand, {
      article: 'LOG-1',
      storefrontArticle: 'SF-LOG',
      priceKopeks: 1000,
      sizes: [{ name: 'M', stock: 1000 }],
    });
  });
  afterAll(() => closeSuite(s));

  it('shows a 422 of the storefront webhook within 5 s with every field, and never the key or the body', async () => {
    const key = await storefrontKey();
    // The first request is checked by the guards (the key is new here, and keyed); the second by
    // the order's statement (the fast lane of a key this instance knows).
    const keyed = await request(s.t.http)
      .post(WEBHOOK)
      .set({ ...key.headers, 'X-Request-Id': 'rl-guarded-1', 'Idempotency-Key': 'rl-idem-1' })
      .send(order('NO-SUCH-ARTICLE'))
      .expect(422);
    const fast = await request(s.t.http).post(WEBHOOK).set(key.headers).send(order('NO-SUCH-ARTICLE')).expect(422);
    const answered = Date.now();

    const items = await eventually(async () => {
      const listed = await requestsOf(key);
      expect(listed).toHaveLength(2);
      return listed;
    }, 5000);
    expect(Date.now() - answered).toBeLessThan(5000);

    const expected = (response: Response, idempotencyKey: string | null) => ({
      id: expect.any(Number),
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      method: 'POST',
      route: WEBHOOK,
      path: WEBHOOK,
      status: 422,
      // The answer's text, without the value the request sent (the answer names it; the log keeps 30 days).
      error: (response.body.error as string).replace('"NO-SUCH-ARTICLE"', '"…"'),
      requestId: response.headers['x-request-id'],
      idempotencyKey,
      durationMs: expect.any(Number),
      ip: expect.stringMatching(/127\.0\.0\.1$/),
      count: 1,
    });
    // Newest first.
    expect(items).toEqual([expected(fast, null), expected(keyed, 'rl-idem-1')]);
    expect(items[1].requestId).toBe('rl-guarded-1');
    expect(keyed.body.error).toMatch(/NO-SUCH-ARTICLE/);
    for (const item of items) {
      expect(item.durationMs).toBeGreaterThanOrEqual(0);
      expect(Math.abs(Date.parse(item.at) - answered)).toBeLessThan(60_000);
    }

    const usage = await usageOf(key);
    const stored = await withClient(s.db.url, async (client) =>
      JSON.stringify([
        (await client.query('SELECT * FROM request_failures')).rows,
        (await client.query('SELECT * FROM request_counts')).rows,
      ]),
    );
    for (const text of [JSON.stringify(items), JSON.stringify(usage), stored]) {
      expect(text).not.toContain(key.key);
      expect(text).not.toContain(key.key.slice(7));
      expect(text).not.toContain(s.fx.admin.token);
      expect(text).not.toContain(RECIPIENT.fullName);
      expect(text).not.toContain(RECIPIENT.phone);
      expect(text).not.toContain('partnerOrderId');
    }
  });

  it('counts every request of the key by status, exactly, and groups its failures by status and text', async () => {
    const key = await storefrontKey();
    const http = s.t.http;
    const responses: Response[] = [];
    const send = async (test: request.Test) => {
      responses.push(await test);
    };
    for (let i = 0; i < 3; i++) await send(request(http).get('/orders/admin/all?limit=1').set(key.headers));
    const first = order();
    await send(request(http).post(WEBHOOK).set(key.headers).send(first));
    await send(request(http).post(WEBHOOK).set(key.headers).send(order()));
    await send(request(http).post(WEBHOOK).set(key.headers).send(first));
    for (let i = 0; i < 3; i++) await send(request(http).post(WEBHOOK).set(key.headers).send(order('NONE')));
    await send(request(http).post(WEBHOOK).set(key.headers).send({}));
    await send(request(http).get('/catalog/products').set(key.headers));
    await send(request(http).get('/orders/admin/999999').set(key.headers));
    // Refused before any guard looked at the key: an unknown route, malformed JSON, a body too large.
    await send(request(http).get('/no/such/route').set(key.headers));
    await send(request(http).post(WEBHOOK).set(key.headers).set('Content-Type', 'application/json').send('{"a":'));
    await send(
      request(http)
        .post(WEBHOOK)
        .set(key.headers)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) })),
    );
    expect(tally(responses).byStatus).toEqual({ '200': 4, '201': 2, '400': 2, '403': 1, '404': 2, '413': 1, '422': 3 });

    // Nobody else's requests count: a session, another key, an unknown and a malformed key.
    const other = await storefrontKey();
    await request(http).get('/orders/admin/all?limit=1').set(other.headers).expect(200);
    await request(http)
      .get('/orders/admin/all?limit=1')
      .set({ ...bearer(s.fx.admin), 'X-Brand-Id': String(brand) })
      .expect(200);
    await request(http)
      .get('/no/such/route')
      .set({ Authorization: `Bearer csh_at_${'0'.repeat(64)}` });
    await request(http).get('/orders/admin/all?limit=1').set({ Authorization: 'Bearer csh_at_x' }).expect(401);

    const usage = await eventually(async () => {
      const current = await usageOf(key);
      expect(current.last24h).toEqual(tally(responses));
      return current;
    }, 5000);
    const text = (status: number) => responses.find((r) => r.status === status)!.body.error as string;
    expect(usage.topErrors).toEqual(
      expect.arrayContaining([
        { status: 422, error: text(422).replace('"NONE"', '"…"'), count: 3, lastAt: expect.any(String) },
        { status: 404, error: 'Not found', count: 2, lastAt: expect.any(String) },
        { status: 413, error: 'Payload too large', count: 1, lastAt: expect.any(String) },
        { status: 403, error: text(403), count: 1, lastAt: expect.any(String) },
      ]),
    );
    expect(usage.topErrors[0]).toMatchObject({ status: 422, count: 3 });
    expect(usage.topErrors.map((e) => e.count)).toEqual([...usage.topErrors.map((e) => e.count)].sort((a, b) => b - a));
    expect(usage.topErrors.reduce((sum, e) => sum + e.count, 0)).toBe(9);

    // Every answer of 400 and above is listed, with its route (none for the unknown one).
    const listed = await eventually(async () => {
      const items = await requestsOf(key);
      expect(items).toHaveLength(9);
      return items;
    }, 5000);
    expect(listed.map((item) => item.requestId).sort()).toEqual(
      responses
        .filter((r) => r.status >= 400)
        .map((r) => r.headers['x-request-id'])
        .sort(),
    );
    expect(listed.find((item) => item.path === '/no/such/route')).toMatchObject({ route: null, status: 404 });
    // Express refuses a bad body before it routes the request, Fastify after: the route is the same.
    expect(listed.find((item) => item.status === 413)).toMatchObject({ route: WEBHOOK, error: 'Payload too large' });
    expect(listed.find((item) => item.error === 'Malformed JSON body')).toMatchObject({ route: WEBHOOK, status: 400 });
    expect(listed.find((item) => item.status === 403)).toMatchObject({ route: '/catalog/products' });
    expect(listed.find((item) => item.path === '/orders/admin/999999')).toMatchObject({
      route: '/orders/admin/:orderId',
    });

    // Nothing is counted twice by later flushes.
    await severalFlushes();
    expect((await usageOf(key)).last24h).toEqual(tally(responses));
  });

  it("counts every 429 of a key over its limit, keeps a few a minute in full and the rest as one entry's count", async () => {
    const key = await issueKey(s.fx, brand, { permissions: ['orders.read'] });
    const responses = await Promise.all(
      Array.from({ length: 45 }, () => request(s.t.http).get('/orders/admin/all?limit=1').set(key.headers)),
    );
    const counted = tally(responses);
    expect(counted.byStatus['429']).toBeGreaterThan(KEPT_429_PER_MINUTE + 1);
    expect(Object.keys(counted.byStatus).sort()).toEqual(['200', '429']);
    await eventually(async () => expect((await usageOf(key)).last24h).toEqual(counted), 5000);
    const listed = await requestsOf(key, '?limit=200');
    expect(listed.every((item) => item.status === 429 && item.error === 'Too many requests')).toBe(true);
    expect(listed.reduce((sum, item) => sum + item.count, 0)).toBe(counted.byStatus['429']);
    // A burst may straddle a minute: at most the kept few and one counting row for each.
    expect(listed.length).toBeLessThanOrEqual(2 * (KEPT_429_PER_MINUTE + 1));
    expect(listed.filter((item) => item.count > 1).length).toBeGreaterThanOrEqual(1);
    expect((await usageOf(key)).topErrors).toEqual([
      { status: 429, error: 'Too many requests', count: counted.byStatus['429'], lastAt: expect.any(String) },
    ]);
  });

  it('keeps an error text with a NUL and without the values the request sent', async () => {
    const key = await issueKey(s.fx, brand, { permissions: ['orders.read'] });
    const email = 'ivanova.maria@example.com';
    const refused = await request(s.t.http)
      .get(`/events?types=${encodeURIComponent(email)}`)
      .set(key.headers);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain(email);
    const nul = await request(s.t.http)
      .get(`/events?types=${encodeURIComponent('x\u0000y')}`)
      .set(key.headers);
    expect(nul.status).toBe(400);
    const listed = await eventually(async () => {
      const items = await requestsOf(key);
      expect(items).toHaveLength(2);
      return items;
    }, 5000);
    expect(listed.map((item) => item.error)).toEqual([
      '… must not contain NUL characters',
      'types must list event types or prefixes such as order.*: "…" is neither',
    ]);
    expect(JSON.stringify(listed)).not.toContain('ivanova');
  });

  it('a key refused with 401 (revoked) is not counted', async () => {
    const key = await issueKey(s.fx, brand, { permissions: ['orders.read'] });
    await request(s.t.http).get('/orders/admin/all?limit=1').set(key.headers).expect(200);
    await request(s.t.http).post(`${keysPath()}/${key.id}/revoke`).set(bearer(s.fx.admin)).expect(200);
    await request(s.t.http).get('/orders/admin/all?limit=1').set(key.headers).expect(401);
    await request(s.t.http).get('/orders/admin/999999').set(key.headers).expect(401);
    await eventually(async () => expect((await usageOf(key)).last24h).toEqual({ total: 1, byStatus: { '200': 1 } }));
    await severalFlushes();
    expect((await usageOf(key)).last24h.total).toBe(1);
    expect(await requestsOf(key)).toEqual([]);
  });

  it('pages by before, newest first, and takes limit 1–200 as a canonical integer', async () => {
    const key = await issueKey(s.fx, brand, { permissions: ['orders.read'] });
    for (let i = 1; i <= 5; i++) {
      await request(s.t.http)
        .get(`/orders/admin/${900000 + i}`)
        .set(key.headers)
        .expect(404);
    }
    const all = await eventually(async () => {
      const items = await requestsOf(key);
      expect(items).toHaveLength(5);
      return items;
    }, 5000);
    expect(all.map((item) => item.path)).toEqual([5, 4, 3, 2, 1].map((i) => `/orders/admin/${900000 + i}`));

    const pages: LoggedRequest[][] = [];
    let before = '';
    for (;;) {
      const page = await requestsOf(key, `?limit=2${before}`);
      if (page.length === 0) break;
      pages.push(page);
      before = `&before=${page[page.length - 1].id}`;
    }
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all);
    expect(await requestsOf(key, '?limit=200')).toHaveLength(5);
    expect(await requestsOf(key, `?limit=1&before=${all[0].id}`)).toEqual([all[1]]);

    const url = `${keysPath()}/${key.id}/requests`;
    for (const query of ['limit=0', 'limit=201', 'limit=01', 'limit=1e1', 'limit=%2B5', 'limit=', 'limit=1&limit=2']) {
      const refused = await request(s.t.http).get(`${url}?${query}`).set(bearer(s.fx.admin)).expect(400);
      expect(refused.body.error).toBe('limit must be an integer from 1–200');
    }
    for (const query of ['before=0', 'before=0x1', 'before=abc', 'before=9'.padEnd(40, '9')]) {
      const refused = await request(s.t.http).get(`${url}?${query}`).set(bearer(s.fx.admin)).expect(400);
      expect(refused.body.error).toMatch(/^before must be an integer from 1–/);
    }
  });

  it("answers another brand's key with 403 Forbidden: brand not allowed, journaled; an unknown one with 404", async () => {
    const key = await storefrontKey();
    const stranger = await s.fx.member(otherBrand, ['settings.manage']);
    for (const what of ['requests', 'usage']) {
      const refused = await request(s.t.http)
        .get(`${keysPath(otherBrand)}/${key.id}/${what}`)
        .set(bearer(stranger))
        .expect(403);
      expect(refused.body.error).toBe('Forbidden: brand not allowed');
    }
    const entries = (await journal(s.fx)).filter(
      (e) => e.type === 'brand_violation' && e.details.resource === 'integration_key' && e.details.id === key.id,
    );
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ brandId: otherBrand, targetBrandId: brand, actor: { kind: 'user' } });

    // Its own brand's reads need settings.manage.
    const clerk = await s.fx.member(brand, ['orders.read']);
    const missing = await request(s.t.http).get(`${keysPath()}/${key.id}/usage`).set(bearer(clerk)).expect(403);
    expect(missing.body.error).toBe('Forbidden: Missing permission settings.manage');
    await request(s.t.http).get(`${keysPath()}/999999/requests`).set(bearer(s.fx.admin)).expect(404);
    await request(s.t.http).get(`${keysPath()}/999999/usage`).set(bearer(s.fx.admin)).expect(404);
    // Keys cannot read it at all: settings.manage is never a key's.
    await request(s.t.http).get(`${keysPath()}/${key.id}/usage`).set(key.headers).expect(403);
  });

  it('writes what the service counted when SIGTERM stops it, answers in flight included', async () => {
    const key = await issueKey(s.fx, brand, { permissions: ['orders.read'] });
    // Its timer would write after 4 s: everything here is written by the shutdown's flush.
    const service = spawnService(await serviceEnv(s.db.url, { ...ENV, REQUEST_LOG_FLUSH_MS: '4000' }));
    const statuses: number[] = [];
    try {
      await waitForHealth(service);
      const answered = async (response: globalThis.Response) => {
        await response.arrayBuffer();
        // Fastify sheds a request that arrives while it drains with its own 503, before any of the service's code
        // (no X-Request-Id): its key was never identified, so it is not counted.
        if (response.headers.get('x-request-id') !== null) statuses.push(response.status);
      };
      const send = (i: number) =>
        fetch(`${service.baseUrl}/orders/admin/${i % 2 === 0 ? 'all?limit=1' : '999999'}`, {
          headers: key.headers,
        }).then(answered, () => undefined); // one sent after the server closed is never answered, never counted
      const sends = Array.from({ length: 40 }, (_, i) => send(i));
      // Once the service answers (on a loaded machine a fixed 30 ms may see none), a second wave is in
      // flight as the signal comes.
      const until = Date.now() + 10_000;
      while (statuses.length === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
      sends.push(...Array.from({ length: 40 }, (_, i) => send(i)));
      await new Promise((resolve) => setTimeout(resolve, 10));
      const stopping = Date.now();
      expect(await stopService(service, 'SIGTERM')).toBe(0);
      // Connections kept alive do not hold the close up (Fastify would keep them 72 s).
      expect(Date.now() - stopping).toBeLessThan(15_000);
      await Promise.all(sends);
    } finally {
      await stopService(service, 'SIGKILL');
    }
    expect(statuses.length).toBeGreaterThan(0);
    // Requests in flight at the signal are served: the database goes after the HTTP server.
    expect(statuses).not.toContain(503);
    const byStatus: Record<string, number> = {};
    for (const status of statuses) byStatus[status] = (byStatus[status] ?? 0) + 1;
    expect((await usageOf(key)).last24h).toEqual({ total: statuses.length, byStatus });
    const listed = await requestsOf(key, '?limit=200');
    expect(listed.reduce((sum, item) => sum + item.count, 0)).toBe(statuses.filter((status) => status >= 400).length);
  });
});
