import { CatalogModule } from '../../src/catalog/catalog.module';
import { CatalogService } from '../../src/catalog/catalog.service';
import type { CreateProductDto } from '../../src/catalog/dto/create-product.dto';
import type { UpdateProductDto } from '../../src/catalog/dto/update-product.dto';
import type { BrandContext } from '../../src/common/context/request-context';
import type { ListEventsQueryDto } from '../../src/events-api/dto/list-events-query.dto';
import { EventsService } from '../../src/events-api/events.service';
import { IdentityModule } from '../../src/identity/identity.module';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher';
import { WebhookEndpointsService } from '../../src/webhooks/webhook-endpoints.service';
import { WebhooksModule } from '../../src/webhooks/webhooks.module';
import { readToEnd, type ReadEvent } from '../support/event-stream';
import { eventually } from '../support/eventually';
import { EventsApiModule } from '../../src/events-api/events-api.module';
import { openMedium, type MediumSuite } from '../support/medium';
import { appErrorOf, mediumBrand, superadminContext } from '../support/medium-fixtures';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Product events (contract §16): `product.created` and `product.updated` on every kind of change,
 * the product as the change left it, numbered per product; read as the events API reads them and
 * delivered to an endpoint subscribed to them. The events API's and the webhooks' HTTP sides are
 * their own suites'.
 */
describe('product events', () => {
  let s: MediumSuite;
  let receiver: WebhookReceiver;
  let ctx: BrandContext;
  let catalog: CatalogService;

  /** The brand's product events through the events API's service, once its horizon has passed every stored one. */
  async function productEvents(): Promise<ReadEvent[]> {
    const [{ n: stored }]: Array<{ n: number }> = await s.dataSource.query(
      `SELECT count(*)::int AS n FROM domain_events WHERE brand_id = $1 AND subject = 'product'`,
      [ctx.brandId],
    );
    const events = s.get(EventsService);
    const fetcher = async (query: string) => {
      const params = new URLSearchParams(query);
      const page: ListEventsQueryDto = {
        limit: Number(params.get('limit') ?? 100),
        after: params.get('after') ?? undefined,
        waitSeconds: Number(params.get('waitSeconds') ?? 0),
        types: 'product.*',
      };
      return { status: 200, body: await events.list(ctx, page, new AbortController().signal) };
    };
    return eventually(async () => {
      const all = (await readToEnd(fetcher)).events;
      expect(all).toHaveLength(stored);
      return all;
    });
  }

  /** Runs the delivery worker (off in this suite) until no delivery is pending. */
  async function deliverAllPending(): Promise<void> {
    const dispatcher = s.get(WebhookDispatcher);
    for (let i = 0; i < 40; i++) {
      await dispatcher.runOnce();
      await dispatcher.drain();
      const [{ n }]: Array<{ n: number }> = await s.dataSource.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`,
      );
      if (n === 0) return;
    }
    throw new Error('deliveries still pending');
  }

  const create = (body: CreateProductDto) => catalog.create(ctx, body);
  const patch = (id: number, body: UpdateProductDto) => catalog.update(ctx, id, body);

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    s = await openMedium([IdentityModule, CatalogModule, WebhooksModule, EventsApiModule], {
      env: { WEBHOOK_WORKER: 'false', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', SECRETS_ENCRYPTION_KEY: 'ab'.repeat(32) },
    });
    catalog = s.get(CatalogService);
    ctx = await superadminContext(s, await mediumBrand(s));
    await s.get(WebhookEndpointsService).create(ctx, {
      url: receiver.url('/products'),
      eventTypes: ['product.created', 'product.updated'],
    });
  });
  afterAll(async () => {
    await s?.close();
    await receiver?.stop();
  });

  it('records created, then updated on every kind of change, each the product as left, numbered per product', async () => {
    const first = await create({
      name: 'Linen shirt',
      article: 'PE-1',
      storefrontArticle: 'SF-PE-1',
      priceKopeks: 9900,
      sizes: [
        { name: 'M', stock: 3 },
        { name: 'S', priceKopeks: 9500 },
      ],
    });
    const other = await create({ name: 'Cap', article: 'PE-2', priceKopeks: 100 });
    const [m, sm] = first.sizes.map((size) => size.id);
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
      { sizeId: sm, name: 'S', priceKopeks: 9500 },
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
    expect((await appErrorOf(create({ name: 'Clash', article: 'PE-1B', priceKopeks: 1 }))).status).toBe(409);
    expect((await appErrorOf(patch(other.id, { article: 'PE-1B' }))).status).toBe(409);
    expect(await productEvents()).toEqual(events);

    // Each is also the message of the subscribed endpoint.
    await deliverAllPending();
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
    const created = await create({ name: 'Scarf', article: 'PE-3', priceKopeks: 100 });
    await Promise.all(Array.from({ length: 8 }, (_, i) => patch(created.id, { priceKopeks: 200 + i })));
    const events = (await productEvents()).filter((e) => e.data.productId === created.id);
    expect(events.map((e) => e.data.sequence).sort((a, b) => Number(a) - Number(b))).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    const last = events.reduce((a, b) => (Number(a.data.sequence) > Number(b.data.sequence) ? a : b));
    expect(last.data.priceKopeks).toBe((await catalog.get(ctx, created.id)).priceKopeks);
  });
});
