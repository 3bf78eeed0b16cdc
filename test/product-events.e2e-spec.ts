import request from 'supertest';
import { readToEnd, type ReadEvent } from './support/event-stream';
import { eventually } from './support/eventually';
import { issueKey, type IssuedKey } from './support/fixtures';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { bearer } from './support/test-app';
import { withClient } from './support/test-database';
import { deliverAllPending } from './support/webhook-delivery';
import { WebhookReceiver } from './support/webhook-receiver';

/**
 * Product events (contract §16): `product.created` and `product.updated` on every kind of change,
 * the product as the change left it, numbered per product; read by GET /events and delivered to
 * an endpoint subscribed to them.
 */
describe('product events', () => {
  let suite: Suite;
  let receiver: WebhookReceiver;
  let brand: number;
  let writer: IssuedKey;
  let reader: IssuedKey;

  const http = () => suite.t.http;
  const fetcher = async (query: string) => {
    const response = await request(http()).get(`/events?${query}`).set(reader.headers);
    return { status: response.status, body: response.body };
  };

  /** The brand's product events, once the readers' horizon has passed every stored one. */
  async function productEvents(): Promise<ReadEvent[]> {
    const stored = await withClient(suite.db.url, async (c) => {
      const rows = await c.query(
        `SELECT count(*)::int AS n FROM domain_events WHERE brand_id = $1 AND subject = 'product'`,
        [brand],
      );
      return rows.rows[0].n as number;
    });
    return eventually(async () => {
      const all = (await readToEnd(fetcher)).events;
      expect(all).toHaveLength(stored);
      return all.filter((e) => e.type.startsWith('product.'));
    });
  }

  const create = (body: object) => request(http()).post('/catalog/products').set(writer.headers).send(body);
  const patch = (id: number, body: object) =>
    request(http()).patch(`/catalog/products/${id}`).set(writer.headers).send(body).expect(200);

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    suite = await openSuite({
      env: {
        WEBHOOK_WORKER: 'false',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        SECRETS_ENCRYPTION_KEY: 'ab'.repeat(32),
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
      },
    });
    brand = await suite.fx.brand();
    writer = await issueKey(suite.fx, brand, { permissions: ['products.write', 'products.read'] });
    reader = await issueKey(suite.fx, brand, { permissions: ['products.read'] });
    await request(http())
      .post(`/admin/brands/${brand}/webhook-endpoints`)
      .set(bearer(suite.fx.admin))
      .send({ url: receiver.url('/products'), eventTypes: ['product.created', 'product.updated'] })
      .expect(201);
  });
  afterAll(async () => {
    await closeSuite(suite);
    await receiver?.stop();
  });

  it('records created, then updated on every kind of change, each the product as left, numbered per product', async () => {
    const first = (
      await create({
        name: 'Linen shirt',
        article: 'PE-1',
        storefrontArticle: 'SF-PE-1',
        priceKopeks: 9900,
        sizes: [
          { name: 'M', stock: 3 },
          { name: 'S', priceKopeks: 9500 },
        ],
      }).expect(201)
    ).body as { id: number; sizes: Array<{ id: number; name: string }> };
    const other = (await create({ name: 'Cap', article: 'PE-2', priceKopeks: 100 }).expect(201)).body as { id: number };
    const [m, s] = first.sizes.map((size) => size.id);
    const product = (over: object, sizes: object[]) => ({
      productId: first.id,
      article: 'PE-1',
      storefrontArticle: 'SF-PE-1',
      name: 'Linen shirt',
      priceKopeks: 9900,
      sizes,
      ...over,
    });
    const twoSizes = [
      { sizeId: m, name: 'M', priceKopeks: null },
      { sizeId: s, name: 'S', priceKopeks: 9500 },
    ];

    await patch(first.id, { name: 'Linen shirt II' });
    await patch(first.id, { article: 'PE-1B' });
    await patch(first.id, { storefrontArticle: null });
    await patch(first.id, { priceKopeks: 12000 });
    await patch(first.id, { attributes: { colour: 'white' } });
    await patch(first.id, { sizes: [{ name: 'S', priceKopeks: 9000 }] });
    await patch(first.id, { sizes: [{ name: 'L', stock: 2 }] });
    // Changes that leave the product as it was record nothing.
    await patch(first.id, { name: 'Linen shirt II', attributes: { colour: 'white' } });
    await patch(first.id, { sizes: [{ name: 'S', priceKopeks: 9000 }, { name: 'm' }] });
    await patch(first.id, {});

    const events = await productEvents();
    const ofFirst = events.filter((e) => e.data.productId === first.id);
    const l = (ofFirst.at(-1)!.data.sizes as Array<{ sizeId: number; name: string }>).find((x) => x.name === 'L')!;
    const named = { name: 'Linen shirt II' };
    const renamed = { ...named, article: 'PE-1B' };
    const unlisted = { ...renamed, storefrontArticle: null };
    const repriced = { ...unlisted, priceKopeks: 12000 };
    const sizePriced = [twoSizes[0], { ...twoSizes[1], priceKopeks: 9000 }];
    expect(ofFirst.map((e) => [e.type, e.data])).toEqual([
      ['product.created', { ...product({}, twoSizes), sequence: 1 }],
      ['product.updated', { ...product(named, twoSizes), sequence: 2 }],
      ['product.updated', { ...product(renamed, twoSizes), sequence: 3 }],
      ['product.updated', { ...product(unlisted, twoSizes), sequence: 4 }],
      ['product.updated', { ...product(repriced, twoSizes), sequence: 5 }],
      // The attributes are not in the event, but changing them is a change.
      ['product.updated', { ...product(repriced, twoSizes), sequence: 6 }],
      ['product.updated', { ...product(repriced, sizePriced), sequence: 7 }],
      [
        'product.updated',
        {
          ...product(repriced, [...sizePriced, { sizeId: l.sizeId, name: 'L', priceKopeks: null }]),
          sequence: 8,
        },
      ],
    ]);
    expect(events.filter((e) => e.data.productId === other.id).map((e) => [e.type, e.data.sequence])).toEqual([
      ['product.created', 1],
    ]);

    // A failed change records nothing.
    await create({ name: 'Clash', article: 'PE-1B', priceKopeks: 1 }).expect(409);
    await request(http())
      .patch(`/catalog/products/${other.id}`)
      .set(writer.headers)
      .send({ article: 'PE-1B' })
      .expect(409);
    expect(await productEvents()).toEqual(events);

    // Each is also the message of the subscribed endpoint.
    await deliverAllPending(suite.t, suite.db.url);
    expect(receiver.at('/products')).toHaveLength(events.length);
    const key = (x: { type: string; data: Record<string, unknown> }) =>
      `${String(x.data.productId)}:${String(x.data.sequence)}`;
    expect(
      receiver
        .at('/products')
        .map((msg) => ({ type: msg.json.type, data: msg.json.data }))
        .sort((a, b) => key(a).localeCompare(key(b))),
    ).toEqual(events.map((e) => ({ type: e.type, data: e.data })).sort((a, b) => key(a).localeCompare(key(b))));
  });

  it('concurrent changes of one product: one event each, numbered without a gap', async () => {
    const created = (await create({ name: 'Scarf', article: 'PE-3', priceKopeks: 100 }).expect(201)).body as {
      id: number;
    };
    await Promise.all(Array.from({ length: 8 }, (_, i) => patch(created.id, { priceKopeks: 200 + i })));
    const events = (await productEvents()).filter((e) => e.data.productId === created.id);
    expect(events.map((e) => e.data.sequence).sort((a, b) => Number(a) - Number(b))).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    const last = events.reduce((a, b) => (Number(a.data.sequence) > Number(b.data.sequence) ? a : b));
    const now = await request(http()).get(`/catalog/products/${created.id}`).set(writer.headers).expect(200);
    expect(last.data.priceKopeks).toBe(now.body.priceKopeks);
  });
});
