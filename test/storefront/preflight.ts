import request from 'supertest';
import {
  createProduct,
  Fixtures,
  issueKey,
  seedShirtAndCap,
  siteWithKey,
  type IssuedKey,
  type StorefrontProduct,
} from '../support/fixtures';
import { countRows } from '../support/stock-probe';
import { type SharedSuite } from '../support/suite';
import { withClient, type TestDatabase } from '../support/test-database';
import { bearer, type TestApp } from '../support/test-app';

const WEBHOOK = '/orders/integrations/partner/webhook';
const PREFLIGHT = '/orders/integrations/partner/preflight';
const TABLES = [
  'orders',
  'order_items',
  'stock_movements',
  'idempotency_keys',
  'domain_events',
  'security_journal',
  'outbox',
];
let seq = 0;

export function describePreflight(shared: SharedSuite): void {
  describe('POST /orders/integrations/partner/preflight', () => {
    let db: TestDatabase;
    let t: TestApp;
    let fx: Fixtures;
    let brandA: number;
    let brandB: number;
    let storefront: IssuedKey;
    let reader: IssuedKey;
    let shirt: StorefrontProduct;
    let cap: StorefrontProduct;

    const post = (path: string, body: unknown, key: IssuedKey = storefront, headers: Record<string, string> = {}) =>
      request(t.http)
        .post(path)
        .set(key.headers)
        .set(headers)
        .send(body as object);
    const preflight = (body: unknown, key?: IssuedKey, headers?: Record<string, string>) =>
      post(PREFLIGHT, body, key, headers);
    const webhook = (body: unknown, key?: IssuedKey) => post(WEBHOOK, body, key);
    const order = (over: Record<string, unknown> = {}) => ({
      partnerOrderId: `PF-${++seq}`,
      recipient: { fullName: 'Ivanova Maria Petrovna', phone: '+7 (912) 345-67-89', email: 'maria@example.com' },
      items: [{ article: 'SF-SHIRT', size: 'm', quantity: 2 }],
      ...over,
    });
    const size = (product: typeof shirt, name: string) => product.sizes.find((s) => s.name === name)!;
    const stockOf = async (sizeId: number) =>
      withClient(
        db.url,
        async (c) => (await c.query('SELECT stock FROM product_sizes WHERE id = $1', [sizeId])).rows[0].stock as number,
      );
    const counts = async () =>
      Object.fromEntries(await Promise.all(TABLES.map(async (n) => [n, await countRows(db.url, n)])));
    /** The error answer without its request id, to compare one route's with the other's. */
    const refusal = (response: request.Response) => {
      const { requestId, ...rest } = response.body as { requestId: string };
      expect(typeof requestId).toBe('string');
      return { status: response.status, ...rest };
    };

    beforeAll(async () => {
      // Brand A listens for order.created (its endpoint is never called), so an order writes its event.
      ({ db, t, fx } = shared.suite);
      brandA = await fx.brand();
      await request(t.http)
        .post(`/admin/brands/${brandA}/webhook-endpoints`)
        .set(bearer(fx.admin))
        .send({ url: 'http://127.0.0.1:9/orders', eventTypes: ['order.created'] })
        .expect(201);
      brandB = await fx.brand();
      storefront = await issueKey(fx, brandA, { name: 'Storefront', permissions: ['orders.create_partner'] });
      reader = await issueKey(fx, brandA, { permissions: ['orders.read'] });
      ({ shirt, cap } = await seedShirtAndCap(fx, brandA));
      await createProduct(fx, brandA, { article: 'ATTR-1', storefrontArticle: 'SF-ATTR', priceKopeks: 1000 });
      await createProduct(fx, brandB, {
        article: 'B-ONLY',
        storefrontArticle: 'SF-B-ONLY',
        priceKopeks: 100,
        sizes: [{ name: 'M', stock: 3 }],
      });
    });

    it('tells every field of matched lines and the totals the order then gets', async () => {
      const body = order({
        items: [
          { article: 'SF-SHIRT', size: 'XL', quantity: 1 },
          { article: 'SF-SHIRT', size: ' m ', quantity: 2, priceKopeks: 399000 },
          { article: 'SF-CAP', size: 'ONE SIZE', quantity: 3 },
        ],
        delivery: { city: 'Kazan', deliveryCostKopeks: 35000 },
      });
      const answer = await preflight(body).expect(200);
      expect(answer.headers['idempotent-replayed']).toBeUndefined();
      expect(answer.body).toEqual({
        ok: true,
        duplicate: false,
        lines: [
          {
            article: 'SF-SHIRT',
            size: 'XL',
            quantity: 1,
            matched: true,
            productId: shirt.id,
            sizeId: size(shirt, 'XL').id,
            priceKopeks: 480000,
            lineTotalKopeks: 480000,
            stock: 5,
            problem: null,
          },
          {
            article: 'SF-SHIRT',
            size: ' m ',
            quantity: 2,
            matched: true,
            productId: shirt.id,
            sizeId: size(shirt, 'M').id,
            priceKopeks: 399000,
            lineTotalKopeks: 798000,
            stock: 100,
            problem: null,
          },
          {
            article: 'SF-CAP',
            size: 'ONE SIZE',
            quantity: 3,
            matched: true,
            productId: cap.id,
            sizeId: size(cap, 'One size').id,
            priceKopeks: 90000,
            lineTotalKopeks: 270000,
            stock: 1,
            problem: null,
          },
        ],
        itemsTotalKopeks: 1548000,
        deliveryCostKopeks: 35000,
        totalKopeks: 1583000,
        problems: [],
      });

      // The webhook, sent the same body, creates that order.
      const created = await webhook(body).expect(201);
      expect(created.body.order.totalKopeks).toBe(answer.body.totalKopeks);
      const stored = await request(t.http)
        .get(`/orders/admin/${created.body.order.id}`)
        .set((await issueKey(fx, brandA, { permissions: ['orders.read'] })).headers)
        .expect(200);
      expect(
        stored.body.items.map((i: Record<string, unknown>) => [i.sizeId, i.priceKopeks, i.lineTotalKopeks]),
      ).toEqual(answer.body.lines.map((l: Record<string, unknown>) => [l.sizeId, l.priceKopeks, l.lineTotalKopeks]));

      // The stock it shows is the size's current stock: after that order, the cap is short.
      const again = await preflight(order({ items: body.items })).expect(200);
      expect(again.body.lines.map((l: { stock: number }) => l.stock)).toEqual([4, 98, -2]);
      expect(again.body.ok).toBe(true);
    });

    it("names each unmatched line with the webhook's 422 text; totals count the matched lines only", async () => {
      const body = order({
        items: [
          { article: 'SF-SHIRT', size: 'M', quantity: 1 },
          { article: 'NOPE', size: 'M', quantity: 1 },
          { article: 'SF-SHIRT', size: 'XXXL', quantity: 1 },
          { article: 'SF-ATTR', size: 'M', quantity: 1 },
          { article: 'LS-001', size: 'M', quantity: 1 },
          { article: 'Linen shirt', size: 'M', quantity: 1 },
          { article: 'SF-B-ONLY', size: 'M', quantity: 1 },
          { article: 'sf-shirt', size: 'M', quantity: 1 },
          { article: 'SF-CAP', size: 'One size', quantity: 2, priceKopeks: 1000 },
        ],
        delivery: { deliveryCostKopeks: 500 },
      });
      const problems = [
        'items.1: storefront article "NOPE" matches no product',
        'items.2: product "SF-SHIRT" has no size "XXXL"',
        'items.3: product "SF-ATTR" has no size "M"',
        'items.4: storefront article "LS-001" matches no product',
        'items.5: storefront article "Linen shirt" matches no product',
        'items.6: storefront article "SF-B-ONLY" matches no product',
        'items.7: storefront article "sf-shirt" matches no product',
      ];
      const answer = await preflight(body).expect(200);
      expect(answer.body).toMatchObject({
        ok: false,
        duplicate: false,
        itemsTotalKopeks: 450000 + 2000,
        deliveryCostKopeks: 500,
        totalKopeks: 452500,
        problems,
      });
      expect(answer.body.lines.map((l: { matched: boolean }) => l.matched)).toEqual([
        true,
        false,
        false,
        false,
        false,
        false,
        false,
        false,
        true,
      ]);
      expect(answer.body.lines[2]).toEqual({
        article: 'SF-SHIRT',
        size: 'XXXL',
        quantity: 1,
        matched: false,
        productId: null,
        sizeId: null,
        priceKopeks: null,
        lineTotalKopeks: null,
        stock: null,
        problem: problems[1],
      });
      expect(
        answer.body.lines.filter((l: { matched: boolean }) => !l.matched).map((l: { problem: string }) => l.problem),
      ).toEqual(problems);

      const refused = await webhook(body).expect(422);
      expect(refused.body).toMatchObject({ error: problems[0], details: problems });
    });

    it('a partnerOrderId the brand has: duplicate and ok, whatever the body, as the webhook answers 200', async () => {
      const first = order();
      await webhook(first).expect(201);
      const other = {
        ...first,
        partnerOrderId: `  ${first.partnerOrderId} `,
        items: [
          { article: 'NOPE', size: 'M', quantity: 1 },
          { article: 'SF-SHIRT', size: 'XL', quantity: 1 },
        ],
      };
      const answer = await preflight(other).expect(200);
      expect(answer.body).toMatchObject({
        ok: true,
        duplicate: true,
        problems: ['items.0: storefront article "NOPE" matches no product'],
        itemsTotalKopeks: 480000,
        totalKopeks: 480000,
      });
      // The webhook answers the repeat with the first order, flagging the different body: 200, not 409 or 422.
      const repeat = await webhook(other).expect(200);
      expect(repeat.body).toMatchObject({ ok: true, duplicate: true, bodyMismatch: true });

      // The same number in another brand is that brand's own.
      const elsewhere = await issueKey(fx, brandB, { permissions: ['orders.create_partner'] });
      const theirs = await preflight(
        { ...first, items: [{ article: 'SF-B-ONLY', size: 'm', quantity: 1 }] },
        elsewhere,
      );
      expect(theirs.body).toMatchObject({ ok: true, duplicate: false, totalKopeks: 100 });
    });

    it('a stock the order would take out of the integer range: not ok, as the webhook answers 422', async () => {
      const deep = await createProduct(fx, brandA, {
        article: 'DEEP-1',
        storefrontArticle: 'SF-DEEP',
        priceKopeks: 100,
        sizes: [{ name: 'M' }],
      });
      const sizeId = deep.sizes[0].id;
      await withClient(db.url, (c) => c.query('UPDATE product_sizes SET stock = -2147483600 WHERE id = $1', [sizeId]));
      const fits = order({ items: [{ article: 'SF-DEEP', size: 'M', quantity: 48 }] });
      const beyond = order({
        items: [
          { article: 'SF-DEEP', size: 'M', quantity: 40 },
          { article: 'SF-DEEP', size: 'm', quantity: 9 },
        ],
      });
      expect((await preflight(beyond).expect(200)).body).toMatchObject({ ok: false, duplicate: false, problems: [] });
      expect((await preflight(fits).expect(200)).body).toMatchObject({ ok: true, problems: [] });
      expect((await webhook(beyond).expect(422)).body.error).toBe(
        'A number in the request is beyond the supported range: nothing was changed',
      );
      await webhook(fits).expect(201);
      expect(await stockOf(sizeId)).toBe(-2147483648);
    });

    it("answers a bad body with the webhook's own 400", async () => {
      const bodies: unknown[] = [
        {},
        { partnerOrderId: 'x' },
        order({ items: [] }),
        order({ partnerOrderId: '   ' }),
        order({ recipient: { fullName: '', phone: 1 } }),
        order({ items: [{ article: 'SF-SHIRT', size: 'M', quantity: 0 }] }),
        order({ items: [{ article: 'SF-SHIRT', size: 'M', quantity: 1.5, priceKopeks: -1 }] }),
        order({ items: [{ article: '', size: '', quantity: '2' }, null] }),
        order({ items: Array.from({ length: 501 }, () => ({ article: 'SF-SHIRT', size: 'M', quantity: 1 })) }),
        order({ delivery: { deliveryCostKopeks: -5, cityCode: 'x' } }),
      ];
      for (const body of bodies) {
        const [ours, theirs] = [await preflight(body), await webhook(body)];
        expect(ours.status).toBe(400);
        expect(refusal(ours)).toEqual(refusal(theirs));
      }
      for (const raw of ['[]', '"text"', 'null', '{"items": [1]}', '{bad json']) {
        const send = (path: string) =>
          request(t.http).post(path).set(storefront.headers).set('Content-Type', 'application/json').send(raw);
        const [ours, theirs] = [await send(PREFLIGHT), await send(WEBHOOK)];
        expect(ours.status).toBe(400);
        expect(refusal(ours)).toEqual(refusal(theirs));
      }
    });

    it('refuses callers as the webhook does: 401 without a good key, 403 without orders.create_partner', async () => {
      const body = order();
      const site = await siteWithKey(fx, brandA);
      const callers: Array<[Record<string, string>, number, string]> = [
        [{}, 401, 'Unauthorized'],
        [{ Authorization: `Bearer csh_at_${'0'.repeat(64)}` }, 401, 'Unauthorized'],
        [site.headers, 401, 'Unauthorized'],
        [reader.headers, 403, 'Forbidden: Missing permission orders.create_partner'],
        [bearer(await fx.member(brandA, ['orders.read'])), 403, 'Forbidden: Missing permission orders.create_partner'],
      ];
      for (const [headers, status, error] of callers) {
        for (const payload of [body, { partnerOrderId: 'x' }]) {
          const ours = await request(t.http).post(PREFLIGHT).set(headers).send(payload);
          const theirs = await request(t.http).post(WEBHOOK).set(headers).send(payload);
          expect({ status: ours.status, error: ours.body.error }).toEqual({ status, error });
          expect({ status: theirs.status, error: theirs.body.error }).toEqual({ status, error });
        }
      }

      // A key the instance has seen on the webhook (its fast lane), then revoked: 401 here as there.
      const key = await issueKey(fx, brandA, { permissions: ['orders.create_partner'] });
      await webhook(order(), key).expect(201);
      await preflight(order(), key).expect(200);
      await request(t.http)
        .post(`/admin/brands/${brandA}/integration-keys/${key.id}/revoke`)
        .set(bearer(fx.admin))
        .expect(200);
      expect((await preflight(order(), key).expect(401)).body.error).toBe('Unauthorized');
      expect((await preflight({}, key).expect(401)).body.error).toBe('Unauthorized');
      await webhook(order(), key).expect(401);

      // A session with the permission, and a full-access key, may ask as they may order.
      const manager = await fx.member(brandA, ['orders.create_partner']);
      expect((await request(t.http).post(PREFLIGHT).set(bearer(manager)).send(order()).expect(200)).body.ok).toBe(true);
      const full = await issueKey(fx, brandA, { fullAccess: true });
      expect((await preflight(order(), full).expect(200)).body.ok).toBe(true);
    });

    it('writes nothing: no order, stock movement, idempotency record, event, journal entry or mail', async () => {
      const m = size(shirt, 'M').id;
      const existing = order();
      await webhook(existing).expect(201);
      const otherBrand = await issueKey(fx, brandB, { permissions: ['orders.create_partner'] });
      const before = await counts();
      const stockBefore = await stockOf(m);
      const key = `pf-${seq}`;
      const bodies = [
        order(),
        order({ items: [{ article: 'NOPE', size: 'M', quantity: 1 }] }),
        { ...existing, items: [{ article: 'SF-SHIRT', size: 'XL', quantity: 1 }] },
        { partnerOrderId: 'x' },
      ];
      for (const body of bodies) {
        await preflight(body);
        // An Idempotency-Key is neither claimed nor recorded: another body with the same key is simply answered.
        const keyed = await preflight(body, storefront, { 'Idempotency-Key': key });
        expect(keyed.headers['idempotent-replayed']).toBeUndefined();
        expect([200, 400]).toContain(keyed.status);
      }
      // Not even read: one the webhook would refuse as malformed changes nothing here.
      await preflight(bodies[0], storefront, { 'Idempotency-Key': 'x'.repeat(300) }).expect(200);
      // Another brand's key asking about this brand's order number: its own brand, no refusal to journal.
      expect((await preflight(existing, otherBrand).expect(200)).body.duplicate).toBe(false);
      expect(await counts()).toEqual(before);
      expect(await stockOf(m)).toBe(stockBefore);

      // The webhook, sent such a body with such a key, does write: the counts above could have moved.
      await webhook(order()).set('Idempotency-Key', `${key}-webhook`).expect(201);
      const after = await counts();
      expect(after.orders).toBe(before.orders + 1);
      expect(after.stock_movements).toBe(before.stock_movements + 1);
      expect(after.idempotency_keys).toBe(before.idempotency_keys + 1);
      expect(after.outbox).toBe(before.outbox + 1);
      expect(after.domain_events).toBe(before.domain_events + 2); // order.created and the size's stock.changed
      expect(await stockOf(m)).toBe(stockBefore - 2);
    });
  });
}
