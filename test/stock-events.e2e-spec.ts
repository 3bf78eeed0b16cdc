import fc from 'fast-check';
import request from 'supertest';
import { readToEnd, type ReadEvent } from './support/event-stream';
import { eventually } from './support/eventually';
import { createProduct, issueKey, siteWithKey, type IssuedKey } from './support/fixtures';
import { PAYMENT_SECRET, postSigned } from './support/signed';
import { stockArithmeticProblems, stockData, type StockEventData } from './support/stock-events';
import { stockAndLedger } from './support/stock-probe';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { bearer } from './support/test-app';
import { withClient } from './support/test-database';
import { deliverAllPending } from './support/webhook-delivery';
import { WebhookReceiver } from './support/webhook-receiver';

let seq = 0;
const RECIPIENT = { fullName: 'Orlova Vera', phone: '+79005550123' };

/**
 * Stock events (contract §16) on a real database: every cause of a stock change records one
 * `stock.changed` a size changed in its transaction, read by GET /events and delivered to an
 * endpoint subscribed to the type, and each size's events add up to its stock.
 */
describe('stock events', () => {
  let suite: Suite;
  let receiver: WebhookReceiver;
  let brand: number;
  let storefront: IssuedKey;
  let clerk: IssuedKey;
  let stockKey: IssuedKey;
  let reader: IssuedKey;

  const http = () => suite.t.http;
  const dbUrl = () => suite.db.url;
  const post = (path: string, key: IssuedKey, body: object = {}) =>
    request(http()).post(path).set(key.headers).send(body);
  const fetcher = (key: IssuedKey) => async (query: string) => {
    const response = await request(http()).get(`/events?${query}`).set(key.headers);
    return { status: response.status, body: response.body };
  };

  /** Every event of `types` the brand has, once the readers' horizon has passed them all. */
  async function readEvents(types: string): Promise<ReadEvent[]> {
    const stored = await withClient(dbUrl(), async (c) => {
      const rows = await c.query(`SELECT count(*)::int AS n FROM domain_events WHERE brand_id = $1`, [brand]);
      return rows.rows[0].n as number;
    });
    return eventually(async () => {
      const all = (await readToEnd(fetcher(reader))).events;
      expect(all).toHaveLength(stored);
      return all.filter((e) =>
        types.split(',').some((t) => (t.endsWith('*') ? e.type.startsWith(t.slice(0, -1)) : e.type === t)),
      );
    });
  }

  /** The stock events read after `before` (an event id). */
  const stockEventsAfter = async (before: number) =>
    stockData((await readEvents('stock.changed')).filter((e) => e.id > before));
  const lastEventId = async () => Math.max(0, ...(await readEvents('*')).map((e) => e.id));

  async function storefrontOrder(items: Array<{ article: string; size: string; quantity: number }>) {
    const response = await post('/orders/integrations/partner/webhook', storefront, {
      partnerOrderId: `SE-${++seq}`,
      recipient: RECIPIENT,
      items,
    }).expect(201);
    return response.body.order.id as number;
  }

  const deliverAll = () => deliverAllPending(suite.t, dbUrl());

  const stockOf = async (sizeIds: number[]) => {
    const now = new Map<number, number>();
    for (const id of sizeIds) {
      const { stock, ledger } = await stockAndLedger(dbUrl(), id);
      expect(ledger).toBe(stock);
      now.set(id, stock);
    }
    return now;
  };

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    suite = await openSuite({
      env: {
        WEBHOOK_WORKER: 'false',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        SECRETS_ENCRYPTION_KEY: 'ef'.repeat(32),
        OUTBOX_WORKER: 'false',
        PAYMENT_WEBHOOK_SECRET: PAYMENT_SECRET,
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
      },
    });
    const { fx } = suite;
    brand = await fx.brand();
    storefront = await issueKey(fx, brand, { permissions: ['orders.create_partner'] });
    clerk = await issueKey(fx, brand, {
      permissions: ['orders.read', 'orders.write', 'returns.read', 'returns.write'],
    });
    stockKey = await issueKey(fx, brand, { permissions: ['stock.read', 'stock.write'] });
    reader = await issueKey(fx, brand, { fullAccess: true });
    await request(http())
      .post(`/admin/brands/${brand}/webhook-endpoints`)
      .set(bearer(fx.admin))
      .send({ url: receiver.url('/stock'), eventTypes: ['stock.changed'] })
      .expect(201);
  });
  afterAll(async () => {
    await closeSuite(suite);
    await receiver?.stop();
  });

  describe('every cause', () => {
    let sizeA: number;
    let sizeB: number;
    let sizeC: number;
    let productId: number;
    const facts = () => ({ productId, article: 'ST-1', storefrontArticle: 'SF-ST-1' });

    it('initial: one event a size given stock at its creation, none for a size without', async () => {
      const product = await createProduct(suite.fx, brand, {
        article: 'ST-1',
        storefrontArticle: 'SF-ST-1',
        priceKopeks: 5000,
        sizes: [{ name: 'A', stock: 10 }, { name: 'B', stock: 5 }, { name: 'C' }],
      });
      [sizeA, sizeB, sizeC] = product.sizes.map((s) => s.id);
      productId = product.id;
      const events = await stockEventsAfter(0);
      expect(events).toEqual([
        {
          sizeId: sizeA,
          ...facts(),
          size: 'A',
          delta: 10,
          stock: 10,
          reason: 'initial',
          orderId: null,
          returnId: null,
          sequence: 1,
        },
        {
          sizeId: sizeB,
          ...facts(),
          size: 'B',
          delta: 5,
          stock: 5,
          reason: 'initial',
          orderId: null,
          returnId: null,
          sequence: 1,
        },
      ]);
    });

    it('storefront order: one event a size with its net change, and the order.created event for a brand with no endpoint for it', async () => {
      const before = await lastEventId();
      const orderId = await storefrontOrder([
        { article: 'SF-ST-1', size: 'A', quantity: 2 },
        { article: 'SF-ST-1', size: 'b', quantity: 1 },
        { article: 'SF-ST-1', size: 'a', quantity: 1 },
      ]);
      const all = (await readEvents('*')).filter((e) => e.id > before);
      expect(all.filter((e) => e.type === 'order.created').map((e) => e.data.orderId)).toEqual([orderId]);
      const stock = stockData(all).sort((x, y) => x.sizeId - y.sizeId);
      expect(stock).toEqual([
        {
          sizeId: sizeA,
          ...facts(),
          size: 'A',
          delta: -3,
          stock: 7,
          reason: 'order',
          orderId,
          returnId: null,
          sequence: 2,
        },
        {
          sizeId: sizeB,
          ...facts(),
          size: 'B',
          delta: -1,
          stock: 4,
          reason: 'order',
          orderId,
          returnId: null,
          sequence: 2,
        },
      ]);

      // Cancellation: the stock comes back, one event a size.
      const cancelled = await lastEventId();
      await post(`/orders/admin/${orderId}/cancel`, clerk).expect(200);
      expect((await stockEventsAfter(cancelled)).sort((x, y) => x.sizeId - y.sizeId)).toEqual([
        {
          sizeId: sizeA,
          ...facts(),
          size: 'A',
          delta: 3,
          stock: 10,
          reason: 'cancellation',
          orderId,
          returnId: null,
          sequence: 3,
        },
        {
          sizeId: sizeB,
          ...facts(),
          size: 'B',
          delta: 1,
          stock: 5,
          reason: 'cancellation',
          orderId,
          returnId: null,
          sequence: 3,
        },
      ]);
    });

    it('platform order: nothing while pending, one event a size when paid', async () => {
      const created = await post('/orders/admin', clerk, {
        recipient: RECIPIENT,
        items: [
          { sizeId: sizeA, quantity: 2 },
          { sizeId: sizeC, quantity: 1 },
        ],
      }).expect(201);
      const order = created.body.order as { id: number; orderNumber: string; totalKopeks: number };
      const before = await lastEventId();
      expect(await stockEventsAfter(before)).toEqual([]);
      await postSigned(http(), '/payments/webhook', PAYMENT_SECRET, {
        eventId: `se-pay-${++seq}`,
        orderNumber: order.orderNumber,
        amountKopeks: order.totalKopeks,
        status: 'succeeded',
        paidAt: new Date().toISOString(),
      }).expect(200);
      expect((await stockEventsAfter(before)).sort((x, y) => x.sizeId - y.sizeId)).toEqual([
        {
          sizeId: sizeA,
          ...facts(),
          size: 'A',
          delta: -2,
          stock: 8,
          reason: 'order',
          orderId: order.id,
          returnId: null,
          sequence: 4,
        },
        {
          sizeId: sizeC,
          ...facts(),
          size: 'C',
          delta: -1,
          stock: -1,
          reason: 'order',
          orderId: order.id,
          returnId: null,
          sequence: 1,
        },
      ]);
    });

    it('received return: the restocked units, naming the order and the return; a receipt restocking nothing records nothing', async () => {
      const orderId = await storefrontOrder([{ article: 'SF-ST-1', size: 'B', quantity: 3 }]);
      const order = (await request(http()).get(`/orders/admin/${orderId}`).set(clerk.headers).expect(200)).body;
      const requested = await post('/returns', clerk, {
        orderId,
        externalReturnId: `SER-${++seq}`,
        reasonCode: 'wrong_size',
        items: [{ orderItemId: order.items[0].id, quantity: 3 }],
      }).expect(201);
      const returnId = requested.body.return.id as number;
      await post(`/returns/${returnId}/approve`, clerk).expect(200);
      const returnItemId = (await request(http()).get(`/returns/${returnId}`).set(clerk.headers)).body.items[0].id;
      const before = await lastEventId();
      await post(`/returns/${returnId}/receive`, clerk, {
        items: [{ returnItemId, quantity: 1, disposition: 'damaged' }],
      }).expect(200);
      expect(await stockEventsAfter(before)).toEqual([]);
      await post(`/returns/${returnId}/receive`, clerk, {
        items: [{ returnItemId, quantity: 2, disposition: 'restock' }],
      }).expect(200);
      expect(await stockEventsAfter(before)).toEqual([
        { sizeId: sizeB, ...facts(), size: 'B', delta: 2, stock: 4, reason: 'return', orderId, returnId, sequence: 5 },
      ]);
    });

    it('acceptance: one event a size, lines of one size added up', async () => {
      const site = await siteWithKey(suite.fx, brand);
      const before = await lastEventId();
      await request(http())
        .post('/production-api/acceptances')
        .set(site.headers)
        .send({
          items: [
            { article: 'ST-1', size: 'C', quantity: 4 },
            { article: 'ST-1', size: 'c', quantity: 3 },
          ],
        })
        .expect(201);
      expect(await stockEventsAfter(before)).toEqual([
        {
          sizeId: sizeC,
          ...facts(),
          size: 'C',
          delta: 7,
          stock: 6,
          reason: 'acceptance',
          orderId: null,
          returnId: null,
          sequence: 2,
        },
      ]);
    });

    it('adjustment: one event; the events of every size add up to its stock and reach the subscribed endpoint', async () => {
      const before = await lastEventId();
      await post('/inventory/adjustments', stockKey, { sizeId: sizeA, delta: -5, reason: 'stocktake' }).expect(201);
      expect(await stockEventsAfter(before)).toEqual([
        {
          sizeId: sizeA,
          ...facts(),
          size: 'A',
          delta: -5,
          stock: 3,
          reason: 'adjustment',
          orderId: null,
          returnId: null,
          sequence: 5,
        },
      ]);

      const read = stockData(await readEvents('stock.changed'));
      // A key that may read stock alone reads the same.
      expect(stockData((await readToEnd(fetcher(stockKey))).events)).toEqual(read);
      expect(stockArithmeticProblems(read, await stockOf([sizeA, sizeB, sizeC]))).toEqual([]);
      await deliverAll();
      const delivered = receiver.at('/stock').map((m) => m.json as unknown as { type: string; data: StockEventData });
      expect(delivered.every((m) => m.type === 'stock.changed')).toBe(true);
      const key = (e: StockEventData) => `${e.sizeId}:${e.sequence}`;
      expect(delivered.map((m) => m.data).sort((x, y) => key(x).localeCompare(key(y)))).toEqual(
        [...read].sort((x, y) => key(x).localeCompare(key(y))),
      );
    });
  });

  it('a brand with no endpoint at all: its storefront order records order.created and its stock events, read by GET /events', async () => {
    const quiet = await suite.fx.brand();
    const quietStorefront = await issueKey(suite.fx, quiet, { permissions: ['orders.create_partner'] });
    const quietReader = await issueKey(suite.fx, quiet, { permissions: ['orders.read', 'stock.read'] });
    const product = await createProduct(suite.fx, quiet, {
      article: 'Q-1',
      storefrontArticle: 'SF-Q-1',
      priceKopeks: 700,
      sizes: [{ name: 'One', stock: 4 }],
    });
    const placed = await post('/orders/integrations/partner/webhook', quietStorefront, {
      partnerOrderId: `SEQ-${++seq}`,
      recipient: RECIPIENT,
      items: [{ article: 'SF-Q-1', size: 'One', quantity: 3 }],
    }).expect(201);
    const orderId = placed.body.order.id as number;
    const events = await eventually(async () => {
      const read = (await readToEnd(fetcher(quietReader))).events;
      expect(read).toHaveLength(3);
      return read;
    });
    expect(events.map((e) => [e.type, e.data.sequence])).toEqual(
      expect.arrayContaining([
        ['stock.changed', 1],
        ['order.created', 1],
        ['stock.changed', 2],
      ]),
    );
    expect(events.find((e) => e.type === 'order.created')!.data.orderId).toBe(orderId);
    expect(stockData(events).at(-1)).toEqual({
      sizeId: product.sizes[0].id,
      productId: product.id,
      article: 'Q-1',
      storefrontArticle: 'SF-Q-1',
      size: 'One',
      delta: -3,
      stock: 1,
      reason: 'order',
      orderId,
      returnId: null,
      sequence: 2,
    });
    const messages = await withClient(dbUrl(), (c) =>
      c.query(`SELECT count(*)::int AS n FROM webhook_messages WHERE brand_id = $1`, [quiet]),
    );
    expect(messages.rows[0].n).toBe(0);
  });

  it('mixed concurrent changes on a few sizes: every size ends with its events adding up', async () => {
    const product = await createProduct(suite.fx, brand, {
      article: 'MIX-1',
      storefrontArticle: 'SF-MIX-1',
      priceKopeks: 100,
      sizes: [{ name: 'S', stock: 20 }, { name: 'M', stock: 20 }, { name: 'L' }],
    });
    const sizes = product.sizes.map((s) => s.id);
    const names = product.sizes.map((s) => s.name);
    const site = await siteWithKey(suite.fx, brand, 'Mix workshop');
    const placed: number[] = [];
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('order' as const),
        lines: fc.array(fc.record({ size: fc.nat(2), quantity: fc.integer({ min: 1, max: 3 }) }), {
          minLength: 1,
          maxLength: 4,
        }),
      }),
      fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(20) }),
      fc.record({
        kind: fc.constant('adjust' as const),
        size: fc.nat(2),
        delta: fc.integer({ min: -5, max: 5 }).filter((d) => d !== 0),
      }),
      fc.record({ kind: fc.constant('accept' as const), size: fc.nat(2), quantity: fc.integer({ min: 1, max: 4 }) }),
    );
    type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;
    const run = async (o: Op) => {
      if (o.kind === 'order') {
        placed.push(
          await storefrontOrder(
            o.lines.map((l) => ({ article: 'SF-MIX-1', size: names[l.size], quantity: l.quantity })),
          ),
        );
      } else if (o.kind === 'cancel') {
        if (placed.length === 0) return;
        const [id] = placed.splice(o.pick % placed.length, 1);
        await post(`/orders/admin/${id}/cancel`, clerk).expect(200);
      } else if (o.kind === 'adjust') {
        await post('/inventory/adjustments', stockKey, { sizeId: sizes[o.size], delta: o.delta, reason: 'mix' }).expect(
          201,
        );
      } else {
        await request(http())
          .post('/production-api/acceptances')
          .set(site.headers)
          .send({ items: [{ article: 'MIX-1', size: names[o.size], quantity: o.quantity }] })
          .expect(201);
      }
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 4 }),
        async (lanes) => {
          await Promise.all(
            lanes.map(async (lane) => {
              for (const o of lane) await run(o);
            }),
          );
          const read = stockData(await readEvents('stock.changed')).filter((e) => sizes.includes(e.sizeId));
          expect(stockArithmeticProblems(read, await stockOf(sizes))).toEqual([]);
        },
      ),
      { numRuns: 6 },
    );
  });

  it('keeps a stock event in columns, with no data; one an earlier build kept as data reads back as it was', async () => {
    const kept = await withClient(dbUrl(), async (c) => {
      const rows = await c.query(
        `SELECT count(*)::int AS n, count(data)::int AS with_data, count(stock_delta)::int AS with_delta
           FROM domain_events WHERE brand_id = $1 AND type = 'stock.changed'`,
        [brand],
      );
      return rows.rows[0] as { n: number; with_data: number; with_delta: number };
    });
    expect(kept.n).toBeGreaterThan(0);
    expect(kept).toEqual({ n: kept.n, with_data: 0, with_delta: kept.n });

    const other = await suite.fx.brand();
    const otherReader = await issueKey(suite.fx, other, { permissions: ['stock.read'] });
    const data = {
      sizeId: 987654,
      productId: 4321,
      article: 'OLD-1',
      storefrontArticle: null,
      size: 'XL',
      delta: -2,
      stock: 7,
      reason: 'order',
      orderId: 55,
      returnId: null,
      sequence: 1,
    };
    const id = await withClient(dbUrl(), async (c) => {
      const rows = await c.query(
        `INSERT INTO domain_events (brand_id, subject, subject_id, type, data, sequence)
         VALUES ($1, 'size', 987654, 'stock.changed', $2, 1) RETURNING id::int AS id`,
        [other, data],
      );
      return rows.rows[0].id as number;
    });
    const read = await eventually(async () => {
      const events = (await readToEnd(fetcher(otherReader))).events;
      expect(events).toHaveLength(1);
      return events;
    });
    expect(read.map((e) => ({ id: e.id, data: e.data }))).toEqual([{ id, data }]);
    const one = await request(http()).get(`/events/${id}`).set(otherReader.headers).expect(200);
    expect(one.body.data).toEqual(data);
  });
});
