import request from 'supertest';
import { ErrorText } from '../src/common/errors/error-texts';
import { DomainEvents } from '../src/domain-events/domain-events';
import { readPage, readToEnd, sequenceProblems, type ReadEvent } from './support/event-stream';
import { checkedInFiles, renderedFiles } from './support/reviewed-queries';
import { eventually } from './support/eventually';
import { createProduct, issueKey, journal, type IssuedKey } from './support/fixtures';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { bearer } from './support/test-app';
import { withClient } from './support/test-database';
import { deliverAllPending } from './support/webhook-delivery';
import { WebhookReceiver } from './support/webhook-receiver';
import { OpenApiCheck } from './support/openapi-check';
import { EVENT_TYPES } from '../src/webhooks/event-types';

let seq = 0;
const RECIPIENT = { fullName: 'Lebedeva Nina', phone: '+79005550101' };

/**
 * Reading events (contract §16) on a real database: every event of the brand once, in order,
 * with the webhook message's data, under the HTTP writers, and across a kill of the service
 * (events-api-crash.e2e-spec.ts). Writers that commit out of id order and the horizon:
 * test/medium/events-stream.medium-spec.ts.
 */
describe('the events API', () => {
  let suite: Suite;
  let receiver: WebhookReceiver;
  let brand: number;
  let clerk: IssuedKey;
  let storefront: IssuedKey;
  let reader: IssuedKey;
  let orderReader: IssuedKey;
  let stockReader: IssuedKey;
  let writerOnly: IssuedKey;
  let otherBrand: IssuedKey;

  const http = () => suite.t.http;
  const dbUrl = () => suite.db.url;
  const get = (path: string, key: IssuedKey) => request(http()).get(path).set(key.headers);
  const fetcher = (key: IssuedKey) => async (query: string) => {
    const response = await get(`/events?${query}`, key);
    return { status: response.status, body: response.body };
  };
  const readAll = async (key: IssuedKey, options: { limit?: number; types?: string } = {}) =>
    (await readToEnd(fetcher(key), options)).events;

  /** A storefront order of the cap (or `item`), through `keys` (the brand's by default), read back in full. */
  async function storefrontOrder(
    quantity = 1,
    keys = { storefront, clerk },
    item = { article: 'SF-CAP', size: 'One' },
  ) {
    const response = await request(http())
      .post('/orders/integrations/partner/webhook')
      .set(keys.storefront.headers)
      .send({ partnerOrderId: `EV-${++seq}`, recipient: RECIPIENT, items: [{ ...item, quantity }] })
      .expect(201);
    const order = await get(`/orders/admin/${response.body.order.id}`, keys.clerk).expect(200);
    return order.body as { id: number; items: Array<{ id: number; quantity: number }> };
  }

  const post = (path: string, body: object = {}, key = clerk) => request(http()).post(path).set(key.headers).send(body);

  async function requestReturn(order: { id: number; items: Array<{ id: number }> }, quantity = 1, key = clerk) {
    const response = await post(
      '/returns',
      {
        orderId: order.id,
        externalReturnId: `EVR-${++seq}`,
        reasonCode: 'wrong_size',
        items: [{ orderItemId: order.items[0].id, quantity }],
      },
      key,
    ).expect(201);
    return response.body.return.id as number;
  }

  /** Approves a return and receives `quantity` of its first line back into stock. */
  async function receiveReturn(returnId: number, quantity: number, key = clerk) {
    await post(`/returns/${returnId}/approve`, {}, key).expect(200);
    const [item] = (await get(`/returns/${returnId}`, key)).body.items as Array<{ id: number }>;
    await post(
      `/returns/${returnId}/receive`,
      { items: [{ returnItemId: item.id, quantity, disposition: 'restock' }] },
      key,
    ).expect(200);
  }

  const deliverAll = () => deliverAllPending(suite.t, dbUrl());

  /** The brand's events as stored, in id order. */
  const storedEvents = (brandId: number) =>
    withClient(dbUrl(), async (c) => {
      const rows = await c.query(
        `SELECT id::int AS id, type, subject, subject_id, sequence FROM domain_events WHERE brand_id = $1 ORDER BY id`,
        [brandId],
      );
      return rows.rows as Array<{ id: number; type: string; subject: string; subject_id: number; sequence: number }>;
    });

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    suite = await openSuite({
      env: {
        WEBHOOK_WORKER: 'false',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        SECRETS_ENCRYPTION_KEY: 'cd'.repeat(32),
        OUTBOX_WORKER: 'false',
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
      },
    });
    const { fx } = suite;
    brand = await fx.brand();
    const other = await fx.brand();
    clerk = await issueKey(fx, brand, {
      permissions: ['orders.read', 'orders.write', 'returns.read', 'returns.write'],
    });
    storefront = await issueKey(fx, brand, { permissions: ['orders.create_partner'] });
    reader = await issueKey(fx, brand, { fullAccess: true });
    orderReader = await issueKey(fx, brand, { permissions: ['orders.read'] });
    stockReader = await issueKey(fx, brand, { permissions: ['stock.read'] });
    writerOnly = await issueKey(fx, brand, { permissions: ['orders.write', 'returns.write'] });
    otherBrand = await issueKey(fx, other, { fullAccess: true });
    // Every event of the brand is also a webhook message, to compare with.
    await request(http())
      .post(`/admin/brands/${brand}/webhook-endpoints`)
      .set(bearer(fx.admin))
      .send({ url: receiver.url('/all'), eventTypes: ['*'] })
      .expect(201);
    // After the endpoint: the product's and its initial stock's events are messages too.
    await createProduct(fx, brand, {
      article: 'CAP',
      storefrontArticle: 'SF-CAP',
      priceKopeks: 15000,
      sizes: [{ name: 'One', stock: 100000 }],
    });
  });
  afterAll(async () => {
    await closeSuite(suite);
    await receiver?.stop();
  });

  it('composes its statements as the reviewed SQL files hold them (the application’s own subscribers)', () => {
    const rendered = renderedFiles(suite.t.app.get(DomainEvents).sql);
    const checkedIn = checkedInFiles();
    expect([...rendered].filter(([file, text]) => checkedIn.get(file) !== text).map(([file]) => file)).toEqual([]);
  });

  describe('a brand with orders and returns', () => {
    let all: ReadEvent[];

    beforeAll(async () => {
      const kept = await storefrontOrder(3);
      const returnId = await requestReturn(kept, 2);
      await receiveReturn(returnId, 2);
      const cancelled = await storefrontOrder();
      await post(`/orders/admin/${cancelled.id}/cancel`).expect(200);
      const declined = await requestReturn(kept, 1);
      await post(`/returns/${declined}/decline`, { reasonNote: 'worn' }).expect(200);
      // A worker's write in this database may hold the horizon back a moment.
      const stored = await storedEvents(brand);
      all = await eventually(async () => {
        const events = await readAll(reader);
        expect(events).toHaveLength(stored.length);
        return events;
      });
    });

    it('reads every event of the brand once, in order, each as its webhook message', async () => {
      const stored = await storedEvents(brand);
      expect(stored.length).toBeGreaterThanOrEqual(8);
      expect(all.map((e) => e.id).sort((a, b) => a - b)).toEqual(stored.map((e) => e.id));
      await deliverAll();
      const messages = receiver.at('/all').map((m) => m.json);
      const asMessages = all.map((e) => ({ type: e.type, timestamp: e.occurredAt, data: e.data }));
      const key = (m: { type: string; data: Record<string, unknown> }) => JSON.stringify([m.type, m.data]);
      expect(asMessages.sort((a, b) => key(a).localeCompare(key(b)))).toEqual(
        messages.sort((a, b) => key(a).localeCompare(key(b))),
      );
      expect(all.map((e) => e.type)).toEqual(
        expect.arrayContaining(['order.created', 'order.cancelled', 'return.requested', 'return.approved']),
      );
    });

    it("keeps each subject's events in sequence order", () => {
      expect(sequenceProblems(all, true)).toEqual([]);
    });

    it('pages with small limits exactly as one big page', async () => {
      const one = await get('/events?limit=500', reader).expect(200);
      expect(one.body.items).toEqual(all);
      expect(await readAll(reader, { limit: 1 })).toEqual(all);
      expect(await readAll(reader, { limit: 3 })).toEqual(all);
      const empty = await get(`/events?after=${one.body.nextCursor}`, reader).expect(200);
      expect(empty.body).toEqual({ items: [], nextCursor: one.body.nextCursor });
    });

    it('filters by exact types and by prefix; reads only what the caller may read without types', async () => {
      const paid = await get('/events?types=order.cancelled', reader).expect(200);
      expect(paid.body.items).toEqual(all.filter((e) => e.type === 'order.cancelled'));
      expect(await readAll(reader, { types: 'order.*', limit: 2 })).toEqual(
        all.filter((e) => e.type.startsWith('order.')),
      );
      expect(await readAll(reader, { types: 'return.*,order.created' })).toEqual(
        all.filter((e) => e.type.startsWith('return.') || e.type === 'order.created'),
      );
      expect(await readAll(orderReader)).toEqual(all.filter((e) => e.type.startsWith('order.')));
      const stockEvents = all.filter((e) => e.type === 'stock.changed');
      expect(stockEvents.length).toBeGreaterThan(0);
      expect(await readAll(stockReader, { types: 'stock.*' })).toEqual(stockEvents);
      expect(await readAll(stockReader)).toEqual(stockEvents);
      const productEvents = all.filter((e) => e.type.startsWith('product.'));
      expect(productEvents.map((e) => e.type)).toEqual(['product.created']);
      expect(await readAll(reader, { types: 'product.*' })).toEqual(productEvents);
    });

    it('refuses unknown types (400) and types the caller may not read (403 naming the permission)', async () => {
      for (const types of ['order.unknown', 'orders.*', '*', '', 'webhook.test', 'order.paid,nope']) {
        const response = await get(`/events?types=${encodeURIComponent(types)}`, reader).expect(400);
        expect(response.body.error).toMatch(/^types must list event types or prefixes such as order\.\*/);
      }
      const returns = await get('/events?types=return.*', orderReader).expect(403);
      expect(returns.body.error).toBe(ErrorText.missingPermission('returns.read'));
      const stock = await get('/events?types=order.paid,stock.changed', orderReader).expect(403);
      expect(stock.body.error).toBe(ErrorText.missingPermission('stock.read'));
      const none = await get('/events', writerOnly).expect(403);
      expect(none.body.error).toBe(ErrorText.missingPermission('orders.read'));
      // One that may read no family is told what the types it asked for need.
      for (const [types, permission] of [
        ['stock.*', 'stock.read'],
        ['product.created', 'products.read'],
        ['return.*', 'returns.read'],
      ]) {
        const refused = await get(`/events?types=${types}`, writerOnly).expect(403);
        expect(refused.body.error).toBe(ErrorText.missingPermission(permission));
      }
    });

    it('takes limit 1–500 as canonical integers and only cursors it wrote', async () => {
      for (const limit of ['0', '501', '1e2', '', '05', '-1', '1.0']) {
        const response = await get(`/events?limit=${limit}`, reader).expect(400);
        expect(response.body.error).toBe('limit must be an integer from 1–500');
      }
      await get('/events?limit=500', reader).expect(200);
      const page = await get('/events?limit=2', reader).expect(200);
      const cursor: string = page.body.nextCursor;
      const inside = Buffer.from(cursor, 'base64url').toString('utf8');
      const tampered = Buffer.from(inside.replace(/\.(\d+)\./, (_, n: string) => `.${Number(n) + 1}.`)).toString(
        'base64url',
      );
      const flipped = cursor.slice(0, 3) + (cursor[3] === 'x' ? 'y' : 'x') + cursor.slice(4);
      for (const after of ['garbage', tampered, flipped, '', `${cursor}=`, cursor.slice(1)]) {
        const response = await get(`/events?after=${encodeURIComponent(after)}`, reader).expect(400);
        expect(response.body.error).toBe(ErrorText.malformedCursor);
      }
      await get(`/events?after=${cursor}&after=${cursor}`, reader).expect(400);
      // Kept for one brand and sent with another's key, a cursor would skip that brand's events below it.
      const foreign = await get(`/events?after=${cursor}`, otherBrand).expect(400);
      expect(foreign.body.error).toBe(ErrorText.malformedCursor);
      const next = await get(`/events?after=${cursor}&limit=500`, reader).expect(200);
      expect(next.body.items).toEqual(all.slice(2));
    });

    it('reads one event; refuses another brand (journaled), a type not permitted, and unknown ids', async () => {
      const [event] = all;
      expect((await get(`/events/${event.id}`, reader).expect(200)).body).toEqual(event);
      const foreign = await get(`/events/${event.id}`, otherBrand).expect(403);
      expect(foreign.body.error).toBe(ErrorText.brandNotAllowed);
      const entry = (await journal(suite.fx)).find(
        (e) => e.type === 'brand_violation' && e.path === `/events/${event.id}`,
      );
      expect(entry).toMatchObject({ targetBrandId: brand, details: { resource: 'event', id: event.id } });
      const returnEvent = all.find((e) => e.type.startsWith('return.'))!;
      const denied = await get(`/events/${returnEvent.id}`, orderReader).expect(403);
      expect(denied.body.error).toBe(ErrorText.missingPermission('returns.read'));
      // One that may read no family is refused before the event is looked up, as a list would refuse it.
      const notReader = await get(`/events/${returnEvent.id}`, writerOnly).expect(403);
      expect(notReader.body.error).toBe(ErrorText.missingPermission('orders.read'));
      // A member of another brand naming this one in X-Brand-Id holds nothing here: it is refused before any lookup.
      const elsewhere = await suite.fx.brand();
      const outsider = await suite.fx.member(elsewhere, ['orders.read', 'returns.read', 'stock.read', 'products.read']);
      const asOutsider = (path: string) =>
        request(http()).get(path).set(bearer(outsider)).set('X-Brand-Id', String(brand)).expect(403);
      const before = (await journal(suite.fx)).length;
      for (const [path, permission] of [
        ['/events', 'orders.read'],
        ['/events?types=stock.*', 'stock.read'],
        [`/events/${returnEvent.id}`, 'orders.read'],
        ['/events/999999999', 'orders.read'],
      ]) {
        expect((await asOutsider(path)).body.error).toBe(ErrorText.missingPermission(permission));
      }
      expect((await journal(suite.fx)).length).toBe(before);
      for (const id of ['999999999', '0', `0${event.id}`, `${event.id}.0`, '0x1', '99999999999999999999']) {
        const response = await get(`/events/${id}`, reader).expect(404);
        expect(response.body.error).toBe(ErrorText.notFound);
      }
    });
  });

  it('the HTTP writers of many orders and returns at once: a polling reader sees every event once, in sequence', async () => {
    const before = new Set((await storedEvents(brand)).map((e) => e.id));
    let { cursor } = await readToEnd(fetcher(reader), { limit: 500 });
    const seen: ReadEvent[] = [];
    let writing = true;
    const poll = (async () => {
      while (writing) {
        const page = await readPage(fetcher(reader), { after: cursor, limit: 7 });
        seen.push(...page.items);
        cursor = page.nextCursor;
      }
    })();
    const writer = async () => {
      for (let i = 0; i < 4; i++) {
        const order = await storefrontOrder(2);
        const returnId = await requestReturn(order, 1);
        const move = Math.random();
        if (move < 0.4) await post(`/returns/${returnId}/approve`).expect(200);
        else if (move < 0.7) await post(`/returns/${returnId}/cancel`).expect(200);
        else await post(`/returns/${returnId}/decline`, { reasonNote: 'no' }).expect(200);
        if (Math.random() < 0.5) await post(`/orders/admin/${order.id}/cancel`).expect(200);
      }
    };
    await Promise.all(Array.from({ length: 8 }, writer)).finally(() => (writing = false));
    await poll;
    const added = (await storedEvents(brand)).filter((e) => !before.has(e.id)).map((e) => e.id);
    expect(added.length).toBeGreaterThanOrEqual(8 * 4 * 3);
    await eventually(async () => {
      const rest = await readToEnd(fetcher(reader), { after: cursor });
      seen.push(...rest.events);
      cursor = rest.cursor;
      expect(seen.map((e) => e.id).sort((a, b) => a - b)).toEqual(added);
    });
    // The orders and returns are new; the size had stock events before.
    const isStock = (e: ReadEvent) => e.type === 'stock.changed';
    expect(
      sequenceProblems(
        seen.filter((e) => !isStock(e)),
        true,
      ),
    ).toEqual([]);
    expect(seen.filter(isStock).length).toBeGreaterThan(0);
    expect(sequenceProblems(seen.filter(isStock), false)).toEqual([]);
  });

  it("sends every family's messages as the OpenAPI document's x-webhooks describe them, and reads them back alike", async () => {
    const { fx } = suite;
    const doc = await OpenApiCheck.load(http());
    expect(doc.messageTypes().sort()).toEqual([...EVENT_TYPES].sort());
    const own = await fx.brand();
    const endpoint = await request(http())
      .post(`/admin/brands/${own}/webhook-endpoints`)
      .set(bearer(fx.admin))
      .send({ url: receiver.url('/documented'), eventTypes: ['*'] })
      .expect(201);
    const product = await createProduct(fx, own, {
      article: 'DOC',
      storefrontArticle: 'SF-DOC',
      priceKopeks: 9900,
      sizes: [
        { name: 'S', stock: 5 },
        { name: 'M', priceKopeks: 10900, stock: 0 },
      ],
    });
    const ownClerk = await issueKey(fx, own, { fullAccess: true });
    await request(http())
      .patch(`/catalog/products/${product.id}`)
      .set(ownClerk.headers)
      .send({ name: 'Renamed' })
      .expect(200);
    const keys = { storefront: await issueKey(fx, own, { permissions: ['orders.create_partner'] }), clerk: ownClerk };
    const item = { article: 'SF-DOC', size: 'S' };
    const order = await storefrontOrder(2, keys, item);
    const returnId = await requestReturn(order, 1, ownClerk);
    await receiveReturn(returnId, 1, ownClerk);
    const cancelled = await storefrontOrder(1, keys, item);
    await post(`/orders/admin/${cancelled.id}/cancel`, {}, ownClerk).expect(200);
    // Not sold through the storefront: its events carry no storefront article.
    await createProduct(fx, own, { article: 'PLAIN', priceKopeks: 500, sizes: [{ name: 'One', stock: 2 }] });
    await request(http())
      .post(`/admin/brands/${own}/webhook-endpoints/${endpoint.body.id}/test`)
      .set(bearer(fx.admin))
      .send({})
      .expect(202);
    await deliverAll();
    const messages = receiver.at('/documented').map((m) => m.json);
    expect(messages.flatMap((m) => doc.messageProblems(m))).toEqual([]);
    const types = new Set(messages.map((m) => m.type));
    const stock = messages.filter((m) => m.type === 'stock.changed');
    expect(stock.some((m) => m.data.returnId === returnId && m.data.reason === 'return')).toBe(true);
    expect(stock.some((m) => m.data.storefrontArticle === null && m.data.reason === 'initial')).toBe(true);
    for (const type of [
      'order.created',
      'order.cancelled',
      'return.requested',
      'stock.changed',
      'product.created',
      'product.updated',
      'webhook.test',
    ])
      expect(types).toContain(type);
    // The events API's data is held to the same classes (GET /events' schema names them).
    const events = await eventually(async () => {
      const read = await readAll(ownClerk);
      expect(read).toHaveLength(messages.length - 1);
      return read;
    });
    const answered = await get('/events?limit=500', ownClerk).expect(200);
    expect(doc.problems('GET', '/events', 200, answered.body)).toEqual([]);
    expect(events.map((e) => doc.messageProblems({ type: e.type, timestamp: e.occurredAt, data: e.data }))).toEqual(
      events.map(() => []),
    );
  });
});
