import request from 'supertest';
import { KeyChecks } from '../src/access-keys/key-checks';
import { contextOf } from '../src/common/context/context-of';
import type { BrandContext } from '../src/common/context/request-context';
import { IdentityModule } from '../src/identity/identity.module';
import { OrdersModule } from '../src/orders/orders.module';
import { PartnerWebhookService } from '../src/orders/storefront/partner-webhook.service';
import {
  createProduct,
  Fixtures,
  issueKey,
  seedShirtAndCap,
  type IssuedKey,
  type StorefrontProduct,
} from './support/fixtures';
import { countRows, stockAndLedger } from './support/stock-probe';
import { closeSuite, openSuite } from './support/suite';
import { withClient, type TestDatabase } from './support/test-database';
import { bearer, type TestApp } from './support/test-app';
import { openMedium, type MediumSuite } from './support/medium';
import { mediumRequest } from './support/medium-fixtures';

const WEBHOOK = '/orders/integrations/partner/webhook';
let seq = 0;

describe('POST /orders/integrations/partner/webhook', () => {
  let db: TestDatabase;
  let t: TestApp;
  let fx: Fixtures;
  let brandA: number;
  let brandB: number;
  let storefront: IssuedKey;
  let reader: IssuedKey;
  let shirt: StorefrontProduct;
  let cap: StorefrontProduct;

  const send = (body: unknown, key: IssuedKey = storefront) =>
    request(t.http)
      .post(WEBHOOK)
      .set(key.headers)
      .send(body as object);
  const minimal = (over: Record<string, unknown> = {}) => ({
    partnerOrderId: `T-${++seq}`,
    recipient: { fullName: 'Ivanova Maria Petrovna', phone: '+7 (912) 345-67-89' },
    items: [{ article: 'SF-SHIRT', size: 'm', quantity: 2 }],
    ...over,
  });
  const sizeM = () => shirt.sizes.find((s) => s.name === 'M')!.id;

  beforeAll(async () => {
    ({ db, t, fx } = await openSuite());
    brandA = await fx.brand();
    brandB = await fx.brand();
    storefront = await issueKey(fx, brandA, { name: 'Storefront', permissions: ['orders.create_partner'] });
    reader = await issueKey(fx, brandA, { permissions: ['orders.read'] });
    ({ shirt, cap } = await seedShirtAndCap(fx, brandA));
    await createProduct(fx, brandA, {
      name: 'Attributes only',
      article: 'ATTR-1',
      storefrontArticle: 'SF-ATTR',
      priceKopeks: 1000,
      attributes: { colour: 'red' },
    });
  });
  afterAll(() => closeSuite({ db, t }));

  describe('acceptance', () => {
    it('creates the order (201 {ok, duplicate: false, order: {id, orderNumber, hash, totalKopeks}}) and deducts stock at once', async () => {
      const before = await stockAndLedger(db.url, sizeM());
      const response = await send(minimal()).expect(201);
      expect(response.body).toEqual({
        ok: true,
        duplicate: false,
        order: {
          id: expect.any(Number),
          orderNumber: expect.stringMatching(/^\d+$/),
          hash: expect.stringMatching(/^[\w-]{22}$/),
          totalKopeks: 900000,
        },
      });
      const after = await stockAndLedger(db.url, sizeM());
      expect(after.stock).toBe(before.stock - 2);
      expect(after.ledger).toBe(after.stock);
    });

    it('stores every field and GET /orders/admin/:orderId returns them', async () => {
      const body = minimal({
        recipient: { fullName: 'Petrov  Pyotr Ilyich', phone: '8 912 345 67 89', email: 'Pyotr@Example.com' },
        items: [
          { article: 'SF-SHIRT', size: 'XL', quantity: 1 },
          { article: 'SF-SHIRT', size: 'M', quantity: 1, priceKopeks: 399000 },
          { article: 'SF-CAP', size: 'ONE SIZE', quantity: 1 },
        ],
        delivery: {
          city: 'Kazan',
          cityCode: 424,
          pvzCode: 'KZN12',
          pvzAddress: 'Bauman st. 1',
          deliveryCostKopeks: 35000,
        },
        carrierOrderUuid: '72753034-0a5e-4b6c-9b2f-4f1c1b3a2b11',
        carrierTrackingNumber: '1234567890',
        waybillUrl: 'https://carrier.example/waybill/1',
        promoCode: 'SPRING10',
        comment: 'Leave at the door',
        orderDate: '2026-11-20T10:15:00+03:00',
      });
      const created = await send(body).expect(201);
      const order = await request(t.http).get(`/orders/admin/${created.body.order.id}`).set(reader.headers).expect(200);
      expect(order.body).toMatchObject({
        id: created.body.order.id,
        orderNumber: created.body.order.orderNumber,
        hash: created.body.order.hash,
        source: 'storefront',
        partnerOrderId: body.partnerOrderId,
        status: 'paid',
        paymentStatus: 'paid',
        deliveryStatus: null,
        stockShortage: false,
        orderedAt: '2026-11-20T07:15:00.000Z',
        itemsTotalKopeks: 480000 + 399000 + 90000,
        deliveryCostKopeks: 35000,
        totalKopeks: 480000 + 399000 + 90000 + 35000,
        promoCode: 'SPRING10',
        comment: 'Leave at the door',
        recipient: {
          fullName: 'Petrov  Pyotr Ilyich',
          surname: 'Petrov',
          firstName: 'Pyotr',
          patronymic: 'Ilyich',
          phone: '8 912 345 67 89',
          email: 'pyotr@example.com',
        },
        delivery: { city: 'Kazan', cityCode: 424, pvzCode: 'KZN12', pvzAddress: 'Bauman st. 1' },
        carrierOrderUuid: '72753034-0a5e-4b6c-9b2f-4f1c1b3a2b11',
        carrierTrackingNumber: '1234567890',
        waybillUrl: 'https://carrier.example/waybill/1',
        items: [
          {
            productId: shirt.id,
            sizeId: shirt.sizes[1].id,
            article: 'LS-001',
            size: 'XL',
            quantity: 1,
            priceKopeks: 480000,
            lineTotalKopeks: 480000,
          },
          {
            productId: shirt.id,
            sizeId: sizeM(),
            article: 'LS-001',
            size: 'M',
            quantity: 1,
            priceKopeks: 399000,
            lineTotalKopeks: 399000,
          },
          {
            productId: cap.id,
            sizeId: cap.sizes[0].id,
            article: 'CAP-1',
            size: 'One size',
            quantity: 1,
            priceKopeks: 90000,
            lineTotalKopeks: 90000,
          },
        ],
      });
      const normalized = await withClient(db.url, (c) =>
        c.query('SELECT recipient_phone_normalized FROM orders WHERE id = $1', [created.body.order.id]),
      );
      expect(normalized.rows[0].recipient_phone_normalized).toBe('+79123456789');
    });

    it('uses the size price, else the product price, when priceKopeks is absent; delivery cost defaults to 0', async () => {
      const xl = await send(minimal({ items: [{ article: 'SF-SHIRT', size: 'xl', quantity: 1 }] })).expect(201);
      expect(xl.body.order.totalKopeks).toBe(480000);
      const m = await send(minimal({ items: [{ article: 'SF-SHIRT', size: 'M', quantity: 3 }] })).expect(201);
      expect(m.body.order.totalKopeks).toBe(3 * 450000);
    });

    it("a price the storefront sends wins over the size's and the product's own", async () => {
      const body = minimal({
        items: [
          { article: 'SF-SHIRT', size: 'XL', quantity: 2, priceKopeks: 470000 },
          { article: 'SF-SHIRT', size: 'M', quantity: 1, priceKopeks: 0 },
        ],
        delivery: { city: 'Kazan', deliveryCostKopeks: 500 },
      });
      const created = await send(body).expect(201);
      expect(created.body.order.totalKopeks).toBe(2 * 470000 + 500);
      const order = await request(t.http).get(`/orders/admin/${created.body.order.id}`).set(reader.headers).expect(200);
      expect(
        order.body.items.map((i: { priceKopeks: number; lineTotalKopeks: number }) => [
          i.priceKopeks,
          i.lineTotalKopeks,
        ]),
      ).toEqual([
        [470000, 940000],
        [0, 0],
      ]);
      expect([order.body.itemsTotalKopeks, order.body.deliveryCostKopeks, order.body.totalKopeks]).toEqual([
        940000, 500, 940500,
      ]);
    });

    it('an absent or invalid orderDate means the moment of receipt', async () => {
      for (const orderDate of [undefined, 'yesterday', '2026-13-45T99:00:00Z', 12345, null]) {
        const before = Date.now();
        const created = await send(minimal({ orderDate })).expect(201);
        const order = await request(t.http)
          .get(`/orders/admin/${created.body.order.id}`)
          .set(reader.headers)
          .expect(200);
        const at = Date.parse(order.body.orderedAt);
        expect(at).toBeGreaterThanOrEqual(before - 1000);
        expect(at).toBeLessThanOrEqual(Date.now() + 1000);
      }
    });

    it('accepts an order beyond the stock and marks it stockShortage', async () => {
      const capSize = cap.sizes[0].id;
      const before = await stockAndLedger(db.url, capSize);
      const created = await send(
        minimal({ items: [{ article: 'SF-CAP', size: 'One size', quantity: before.stock + 2 }] }),
      ).expect(201);
      const order = await request(t.http).get(`/orders/admin/${created.body.order.id}`).set(reader.headers).expect(200);
      expect(order.body.stockShortage).toBe(true);
      expect(await stockAndLedger(db.url, capSize)).toEqual({ stock: -2, ledger: -2 });
    });

    it('records the buyer mail intent durably when there is an e-mail, and not without', async () => {
      const withMail = await send(
        minimal({ recipient: { fullName: 'A B', phone: '+79120000000', email: 'a@example.com' } }),
      ).expect(201);
      const without = await send(minimal()).expect(201);
      expect(
        await countRows(db.url, 'outbox', `kind = 'mail.order_accepted' AND payload->>'orderId' = $1`, [
          String(withMail.body.order.id),
        ]),
      ).toBe(1);
      expect(await countRows(db.url, 'outbox', `payload->>'orderId' = $1`, [String(without.body.order.id)])).toBe(0);
    });
  });

  describe('repeats', () => {
    it('a repeat creates nothing and answers 200 {ok, duplicate: true, order} describing the first order', async () => {
      const body = minimal();
      const first = await send(body).expect(201);
      const stock = await stockAndLedger(db.url, sizeM());
      const again = await send(body).expect(200);
      expect(again.body).toEqual({ ok: true, duplicate: true, order: first.body.order });
      expect(await stockAndLedger(db.url, sizeM())).toEqual(stock);
    });

    it('a repeat whose body differs is still a duplicate, flagged bodyMismatch', async () => {
      const body = minimal();
      const first = await send(body).expect(201);
      const changed = await send({ ...body, items: [{ article: 'SF-SHIRT', size: 'XL', quantity: 5 }] }).expect(200);
      expect(changed.body).toEqual({ ok: true, duplicate: true, order: first.body.order, bodyMismatch: true });
    });

    it('the duplicate check runs before matching: a retry is 200 even after the product lost its storefront article', async () => {
      const product = await createProduct(fx, brandA, {
        article: 'TEMP-1',
        storefrontArticle: 'SF-TEMP',
        priceKopeks: 100,
        sizes: [{ name: 'S', stock: 10 }],
      });
      const body = minimal({ items: [{ article: 'SF-TEMP', size: 'S', quantity: 1 }] });
      await send(body).expect(201);
      const writer = await issueKey(fx, brandA, { permissions: ['products.write'] });
      await request(t.http)
        .patch(`/catalog/products/${product.id}`)
        .set(writer.headers)
        .send({ storefrontArticle: null })
        .expect(200);
      await send(body).expect(200);
    });

    it('two brands may use the same partner order number', async () => {
      await createProduct(fx, brandB, {
        article: 'B-SHIRT',
        storefrontArticle: 'SF-SHIRT',
        priceKopeks: 100,
        sizes: [{ name: 'M', stock: 10 }],
      });
      const storefrontB = await issueKey(fx, brandB, { permissions: ['orders.create_partner'] });
      const body = minimal();
      const a = await send(body).expect(201);
      const b = await send(body, storefrontB).expect(201);
      expect(b.body.order.id).not.toBe(a.body.order.id);
    });

    it('20 identical requests at the same moment: one 201, nineteen 200 with the same order, stock deducted once', async () => {
      const body = minimal({ items: [{ article: 'SF-SHIRT', size: 'M', quantity: 3 }] });
      const before = await stockAndLedger(db.url, sizeM());
      const responses = await Promise.all(Array.from({ length: 20 }, () => send(body)));
      expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
      expect(responses.filter((r) => r.status === 200)).toHaveLength(19);
      const ids = new Set(responses.map((r) => r.body.order.id));
      expect(ids.size).toBe(1);
      expect(
        await countRows(db.url, 'orders', 'brand_id = $1 AND partner_order_id = $2', [brandA, body.partnerOrderId]),
      ).toBe(1);
      const after = await stockAndLedger(db.url, sizeM());
      expect(after.stock).toBe(before.stock - 3);
      expect(after.ledger).toBe(after.stock);
    });

    // The other two instances are the orders module alone on the same database (test/support/medium):
    // the rule is what instances share, and the HTTP answers are this app's.
    it('identical requests spread over three instances on one database: still exactly one order', async () => {
      const others = await Promise.all(
        [1, 2].map(() =>
          openMedium([IdentityModule, OrdersModule], { db, env: { OUTBOX_WORKER: 'false', WEBHOOK_WORKER: 'false' } }),
        ),
      );
      try {
        const body = minimal({ items: [{ article: 'SF-SHIRT', size: 'M', quantity: 1 }] });
        const before = await stockAndLedger(db.url, sizeM());
        /** The route as another instance's guard chain and controller run it. */
        const elsewhere = async (instance: MediumSuite) => {
          const request = mediumRequest();
          const ctx = contextOf(request);
          ctx.principal = await instance.get(KeyChecks).defer(storefront.key, request, 'orders.create_partner');
          ctx.brandId = ctx.principal.boundBrandId;
          return instance.get(PartnerWebhookService).accept(ctx as BrandContext, body);
        };
        const responses = await Promise.all(
          Array.from({ length: 21 }, (_, i) =>
            i % 3 === 0 ? send(body).then((r) => ({ status: r.status, body: r.body })) : elsewhere(others[(i % 3) - 1]),
          ),
        );
        expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
        expect(responses.filter((r) => r.status === 200)).toHaveLength(20);
        expect(new Set(responses.map((r) => r.body.order.id)).size).toBe(1);
        expect((await stockAndLedger(db.url, sizeM())).stock).toBe(before.stock - 1);
      } finally {
        await Promise.all(others.map((o) => o.close()));
      }
    });
  });

  describe('refusals: nothing is written', () => {
    const nothingWritten = async (work: () => Promise<void>) => {
      const counts = async () => ({
        orders: await countRows(db.url, 'orders'),
        items: await countRows(db.url, 'order_items'),
        movements: await countRows(db.url, 'stock_movements'),
        outbox: await countRows(db.url, 'outbox'),
      });
      const before = await counts();
      await work();
      expect(await counts()).toEqual(before);
    };

    it.each([
      [{ partnerOrderId: undefined }, 'partnerOrderId must be a string'],
      [{ partnerOrderId: '   ' }, 'partnerOrderId must not be empty'],
      [{ recipient: undefined }, 'recipient should not be null or undefined'],
      [{ recipient: { phone: '+79120000000' } }, 'recipient.fullName must be a string'],
      [{ recipient: { fullName: 'A B' } }, 'recipient.phone must be a string'],
      [{ recipient: { fullName: ' ', phone: '1' } }, 'recipient.fullName must not be empty'],
      [{ items: [] }, 'items must contain at least one position'],
      [{ items: undefined }, 'items must be an array'],
      [{ items: [{ article: 'SF-SHIRT', size: 'M', quantity: 0 }] }, 'items.0.quantity must be a positive integer'],
      [{ items: [{ article: 'SF-SHIRT', size: 'M', quantity: -1 }] }, 'items.0.quantity must be a positive integer'],
      [{ items: [{ article: 'SF-SHIRT', size: 'M', quantity: 1.5 }] }, 'items.0.quantity must be a positive integer'],
      [{ items: [{ article: 'SF-SHIRT', size: 'M', quantity: '2' }] }, 'items.0.quantity must be a positive integer'],
      [{ items: [{ article: 'SF-SHIRT', size: 'M' }] }, 'items.0.quantity must be a positive integer'],
      [{ recipient: { fullName: 'A B', phone: '1', email: 'not-mail' } }, 'recipient.email must be an email'],
      [{ delivery: { deliveryCostKopeks: -5 } }, 'delivery.deliveryCostKopeks must be an integer from 0 to 100000000'],
    ])('%p → 400 %p', async (over, error) => {
      await nothingWritten(async () => {
        const response = await send(minimal(over)).expect(400);
        expect(response.body.error).toBe(error);
        expect(response.body.details).toContain(error);
      });
    });

    it('lists every problem of a bad body', async () => {
      const response = await send({ recipient: {}, items: [{ size: 'M', quantity: 0 }] }).expect(400);
      expect(response.body.details).toEqual([
        'partnerOrderId must be a string',
        'items.0.article must be a string',
        'items.0.quantity must be a positive integer',
        'recipient.fullName must be a string',
        'recipient.phone must be a string',
      ]);
    });

    it('more than 500 positions → 400', async () => {
      const items = Array.from({ length: 501 }, () => ({ article: 'SF-SHIRT', size: 'M', quantity: 1 }));
      const response = await send(minimal({ items })).expect(400);
      expect(response.body.error).toBe('items must contain at most 500 positions');
    });

    it('any unmatched item → 422 naming each, and no order, no partial acceptance', async () => {
      await nothingWritten(async () => {
        const response = await send(
          minimal({
            items: [
              { article: 'SF-SHIRT', size: 'M', quantity: 1 },
              { article: 'NOPE', size: 'M', quantity: 1 },
              { article: 'SF-SHIRT', size: 'XXXL', quantity: 1 },
              { article: 'SF-ATTR', size: 'M', quantity: 1 },
            ],
          }),
        ).expect(422);
        expect(response.body.details).toEqual([
          'items.1: storefront article "NOPE" matches no product',
          'items.2: product "SF-SHIRT" has no size "XXXL"',
          'items.3: product "SF-ATTR" has no size "M"',
        ]);
        expect(response.body.error).toBe(response.body.details[0]);
      });
    });

    it('matches by the storefront article field only: never the own article, never the name', async () => {
      for (const article of ['LS-001', 'Linen shirt']) {
        const response = await send(minimal({ items: [{ article, size: 'M', quantity: 1 }] })).expect(422);
        expect(response.body.error).toBe(`items.0: storefront article "${article}" matches no product`);
      }
    });

    it('never matches another brand’s products', async () => {
      await createProduct(fx, brandB, {
        article: 'B-ONLY',
        storefrontArticle: 'SF-B-ONLY',
        priceKopeks: 100,
        sizes: [{ name: 'M' }],
      });
      await send(minimal({ items: [{ article: 'SF-B-ONLY', size: 'M', quantity: 1 }] })).expect(422);
    });

    it('a key without orders.create_partner → 403 Forbidden: Missing permission orders.create_partner', async () => {
      const order = minimal();
      const response = await send(order, reader).expect(403);
      expect(response.body.error).toBe('Forbidden: Missing permission orders.create_partner');
      // The permission is asked inside the order's statement: it must not write first and refuse after.
      expect(await countRows(db.url, 'orders', 'partner_order_id = $1', [order.partnerOrderId])).toBe(0);
    });
  });

  // The key check rides in the order's statement (KeyCheckedByStatement): the same answers as the guards'.
  describe('the key check in the order statement', () => {
    const keysPath = () => `/admin/brands/${brandA}/integration-keys`;
    const ordersOf = (partnerOrderId: string) => countRows(db.url, 'orders', 'partner_order_id = $1', [partnerOrderId]);

    it('a key revoked after an order: the next new order and the next repeat are 401, nothing written', async () => {
      const key = await issueKey(fx, brandA, { permissions: ['orders.create_partner'] });
      const first = minimal();
      await send(first, key).expect(201);
      await request(t.http).post(`${keysPath()}/${key.id}/revoke`).set(bearer(fx.admin)).expect(200);
      const next = minimal();
      expect((await send(next, key).expect(401)).body.error).toBe('Unauthorized');
      expect(await ordersOf(next.partnerOrderId)).toBe(0);
      // The repeat would be answered from memory: the key is still checked first.
      await send(first, key).expect(401);
    });

    it('a key this instance knows, revoked: a bad body and the order list get 401, not 400 or a page', async () => {
      const key = await issueKey(fx, brandA, { permissions: ['orders.create_partner', 'orders.read'] });
      // Its first requests are checked by the guards, after which its statements check it.
      await send(minimal(), key).expect(201);
      await request(t.http).get('/orders/admin/all?limit=1').set(key.headers).expect(200);
      await request(t.http).post(`${keysPath()}/${key.id}/revoke`).set(bearer(fx.admin)).expect(200);
      expect((await send({ partnerOrderId: 'x' }, key).expect(401)).body.error).toBe('Unauthorized');
      await request(t.http).get('/orders/admin/all?limit=1').set(key.headers).expect(401);
      await request(t.http).get('/orders/admin/all?limit=0').set(key.headers).expect(401);
    });

    it('a key this instance knows, revoked, refused by the permission guard from memory: 401, not 403', async () => {
      // Known as an ordering key; its list request is refused by the guard before any statement runs.
      const key = await issueKey(fx, brandA, { permissions: ['orders.create_partner'] });
      await send(minimal(), key).expect(201);
      await request(t.http).get('/orders/admin/all?limit=1').set(key.headers).expect(403);
      await request(t.http).post(`${keysPath()}/${key.id}/revoke`).set(bearer(fx.admin)).expect(200);
      expect((await request(t.http).get('/orders/admin/all?limit=1').set(key.headers).expect(401)).body.error).toBe(
        'Unauthorized',
      );
    });

    it('401 and 403 come before 400 for a bad body; a good key gets the 400', async () => {
      const bad = { partnerOrderId: 'x' };
      const unknown = { headers: { Authorization: `Bearer csh_at_${'0'.repeat(64)}` } } as IssuedKey;
      await send(bad, unknown).expect(401);
      expect((await send(bad, reader).expect(403)).body.error).toBe(
        'Forbidden: Missing permission orders.create_partner',
      );
      await send(bad).expect(400);
      // An Idempotency-Key is scoped to the key, so it is checked before the claim: a bad key is still 401.
      await send(minimal(), unknown).set('Idempotency-Key', 'k-1').expect(401);
    });

    it('an Idempotency-Key stays scoped to the calling key, though the key is checked by the statement', async () => {
      const second = await issueKey(fx, brandA, { permissions: ['orders.create_partner'] });
      const key = `same-${process.pid}-${++seq}`;
      await send(minimal()).set('Idempotency-Key', key).expect(201);
      // Another key with the same Idempotency-Key and another body: its own request, not a 422 reuse.
      const other = await send(minimal(), second).set('Idempotency-Key', key).expect(201);
      expect(other.headers['idempotent-replayed']).toBeUndefined();
    });

    it('a full-access key places orders; another brand’s key orders in its own brand only', async () => {
      const full = await issueKey(fx, brandA, { fullAccess: true });
      const order = minimal();
      await send(order, full).expect(201);
      const other = await issueKey(fx, brandB, { permissions: ['orders.create_partner'] });
      await createProduct(fx, brandB, {
        article: 'B-KC',
        storefrontArticle: 'SF-B-KC',
        priceKopeks: 100,
        sizes: [{ name: 'M' }],
      });
      const inB = minimal({ items: [{ article: 'SF-B-KC', size: 'M', quantity: 1 }] });
      await send(inB, other).expect(201);
      expect(
        await countRows(db.url, 'orders', 'partner_order_id = $1 AND brand_id = $2', [inB.partnerOrderId, brandB]),
      ).toBe(1);
      // The brand is the key's: brand A's key finds no SF-B-KC.
      await send(minimal({ items: [{ article: 'SF-B-KC', size: 'M', quantity: 1 }] })).expect(422);
    });

    it('a key with an address allowlist: allowed from its addresses, 403 journaled from others, nothing written', async () => {
      const pinned = await issueKey(fx, brandA, { permissions: ['orders.create_partner'] });
      const pin = (allowedIps: string[]) =>
        request(t.http).patch(`${keysPath()}/${pinned.id}`).set(bearer(fx.admin)).send({ allowedIps }).expect(200);
      await pin(['127.0.0.0/8', '::1']);
      await send(minimal(), pinned).expect(201);
      await pin(['10.0.0.0/8']);
      const refused = minimal();
      expect((await send(refused, pinned).expect(403)).body.error).toBe('Forbidden: address not allowed');
      expect(await ordersOf(refused.partnerOrderId)).toBe(0);
      expect(
        await countRows(db.url, 'security_journal', "type = 'ip_not_allowed' AND (details->>'keyId')::int = $1", [
          pinned.id,
        ]),
      ).toBe(1);
    });
  });

  describe('many orders on one size', () => {
    it('parallel distinct orders: final stock = initial − Σ quantities, the ledger matches, no deadlock', async () => {
      const product = await createProduct(fx, brandA, {
        article: 'HOT-1',
        storefrontArticle: 'SF-HOT',
        priceKopeks: 1000,
        sizes: [
          { name: 'S', stock: 50 },
          { name: 'M', stock: 50 },
          { name: 'L', stock: 50 },
        ],
      });
      const sizes = ['S', 'M', 'L'];
      const orders = Array.from({ length: 60 }, (_, i) => {
        // Overlapping sizes in different orders of appearance: the lock order must not depend on it.
        const picked = i % 2 === 0 ? sizes : [...sizes].reverse();
        return minimal({ items: picked.map((size, j) => ({ article: 'SF-HOT', size, quantity: ((i + j) % 3) + 1 })) });
      });
      const responses = await Promise.all(orders.map((body) => send(body)));
      expect(responses.map((r) => r.status)).toEqual(Array(60).fill(201));
      for (const [index, size] of product.sizes.entries()) {
        const ordered = orders.reduce(
          (sum, body) =>
            sum +
            (body.items as Array<{ size: string; quantity: number }>)
              .filter((item) => item.size === sizes[index])
              .reduce((s, item) => s + item.quantity, 0),
          0,
        );
        expect(await stockAndLedger(db.url, size.id)).toEqual({ stock: 50 - ordered, ledger: 50 - ordered });
      }
    });
  });
});
