import request from 'supertest';
import { createProduct, Fixtures, issueKey, journal, siteWithKey, type IssuedKey } from './support/fixtures';
import { countRows, stockAndLedger } from './support/stock-probe';
import { closeSuite, openSuite } from './support/suite';
import type { TestDatabase } from './support/test-database';
import { type TestApp } from './support/test-app';

describe('catalog, inventory, production API and platform orders', () => {
  let db: TestDatabase;
  let t: TestApp;
  let fx: Fixtures;
  let brandA: number;
  let brandB: number;
  let catalogKey: IssuedKey;
  let stockKey: IssuedKey;

  beforeAll(async () => {
    ({ db, t, fx } = await openSuite());
    brandA = await fx.brand();
    brandB = await fx.brand();
    catalogKey = await issueKey(fx, brandA, { permissions: ['products.read', 'products.write'] });
    stockKey = await issueKey(fx, brandA, { permissions: ['stock.read', 'stock.write'] });
  });
  afterAll(() => closeSuite({ db, t }));

  describe('products', () => {
    it('POST /catalog/products → 201 with sizes; initial stock enters the ledger', async () => {
      const response = await request(t.http)
        .post('/catalog/products')
        .set(catalogKey.headers)
        .send({
          name: 'Wool coat',
          article: 'WC-1',
          storefrontArticle: 'SF-WC',
          priceKopeks: 1500000,
          sizes: [
            { name: 'S', stock: 3 },
            { name: 'M', priceKopeks: 1600000 },
          ],
          attributes: { colour: 'grey' },
        })
        .expect(201);
      expect(response.body).toEqual({
        id: expect.any(Number),
        name: 'Wool coat',
        article: 'WC-1',
        storefrontArticle: 'SF-WC',
        priceKopeks: 1500000,
        attributes: { colour: 'grey' },
        sizes: [
          { id: expect.any(Number), name: 'S', priceKopeks: null, stock: 3 },
          { id: expect.any(Number), name: 'M', priceKopeks: 1600000, stock: 0 },
        ],
      });
      expect(await stockAndLedger(db.url, response.body.sizes[0].id)).toEqual({ stock: 3, ledger: 3 });
      const movements = await request(t.http)
        .get(`/inventory/movements?sizeId=${response.body.sizes[0].id}`)
        .set(stockKey.headers)
        .expect(200);
      expect(movements.body.items).toEqual([
        expect.objectContaining({ delta: 3, reason: 'initial', actor: { kind: 'integration_key', id: catalogKey.id } }),
      ]);
    });

    it('article and storefrontArticle are each unique in a brand (409) and free across brands', async () => {
      await createProduct(fx, brandA, { article: 'U-1', storefrontArticle: 'SF-U-1', priceKopeks: 1 });
      const article = await request(t.http)
        .post('/catalog/products')
        .set(catalogKey.headers)
        .send({ name: 'x', article: 'U-1', priceKopeks: 1 })
        .expect(409);
      expect(article.body.error).toBe('A product with this article already exists in the brand');
      const storefront = await request(t.http)
        .post('/catalog/products')
        .set(catalogKey.headers)
        .send({ name: 'x', article: 'U-2', storefrontArticle: 'SF-U-1', priceKopeks: 1 })
        .expect(409);
      expect(storefront.body.error).toBe('A product with this storefrontArticle already exists in the brand');
      await createProduct(fx, brandB, { article: 'U-1', storefrontArticle: 'SF-U-1', priceKopeks: 1 });
      // Many products may have no storefront article.
      await createProduct(fx, brandA, { article: 'U-3', priceKopeks: 1 });
      await createProduct(fx, brandA, { article: 'U-4', priceKopeks: 1 });
    });

    it('size names are unique per product whatever their case', async () => {
      const response = await request(t.http)
        .post('/catalog/products')
        .set(catalogKey.headers)
        .send({ name: 'x', article: 'DUP-SIZE', priceKopeks: 1, sizes: [{ name: 'XL' }, { name: 'xl' }] })
        .expect(400);
      expect(response.body.error).toBe('size names must be unique per product (case-insensitive): "xl" repeats');
      expect(await countRows(db.url, 'products', `article = 'DUP-SIZE'`)).toBe(0);
    });

    it('PATCH changes fields, prices existing sizes by name in any case, adds new sizes, clears the storefront article', async () => {
      const product = await createProduct(fx, brandA, {
        article: 'P-1',
        storefrontArticle: 'SF-P-1',
        priceKopeks: 100,
        sizes: [{ name: 'M', stock: 2 }],
      });
      const response = await request(t.http)
        .patch(`/catalog/products/${product.id}`)
        .set(catalogKey.headers)
        .send({
          name: 'Renamed',
          storefrontArticle: null,
          priceKopeks: 200,
          attributes: { fit: 'slim' },
          sizes: [
            { name: 'm', priceKopeks: 250 },
            { name: 'L', stock: 4 },
          ],
        })
        .expect(200);
      expect(response.body).toMatchObject({
        name: 'Renamed',
        storefrontArticle: null,
        priceKopeks: 200,
        attributes: { fit: 'slim' },
        sizes: [
          { name: 'M', priceKopeks: 250, stock: 2 },
          { name: 'L', priceKopeks: null, stock: 4 },
        ],
      });
      expect(await stockAndLedger(db.url, response.body.sizes[1].id)).toEqual({ stock: 4, ledger: 4 });
      const clash = await request(t.http)
        .patch(`/catalog/products/${product.id}`)
        .set(catalogKey.headers)
        .send({ article: 'WC-1' })
        .expect(409);
      expect(clash.body.error).toBe('A product with this article already exists in the brand');
      const invalid = await request(t.http)
        .patch(`/catalog/products/${product.id}`)
        .set(catalogKey.headers)
        .send({ priceKopeks: -1, name: '', storefrontArticle: 5 })
        .expect(400);
      expect(invalid.body.details).toEqual([
        'storefrontArticle must be a string',
        'name must be longer than or equal to 1 characters',
        'priceKopeks must be an integer from 0 to 100000000',
      ]);
    });

    it('reads its brand’s products; another brand’s by id is 403 and journaled; unknown is 404', async () => {
      const foreign = await createProduct(fx, brandB, { article: 'FOREIGN', priceKopeks: 1 });
      const list = await request(t.http).get('/catalog/products').set(catalogKey.headers).expect(200);
      expect(list.body.items.some((p: { id: number }) => p.id === foreign.id)).toBe(false);
      const response = await request(t.http).get(`/catalog/products/${foreign.id}`).set(catalogKey.headers).expect(403);
      expect(response.body.error).toBe('Forbidden: brand not allowed');
      await request(t.http)
        .patch(`/catalog/products/${foreign.id}`)
        .set(catalogKey.headers)
        .send({ name: 'hijack' })
        .expect(403);
      expect(
        (await journal(fx)).filter(
          (e) => e.type === 'brand_violation' && e.details.resource === 'product' && e.details.id === foreign.id,
        ),
      ).toHaveLength(2);
      await request(t.http).get('/catalog/products/99999999').set(catalogKey.headers).expect(404);
    });

    it('products.read cannot write', async () => {
      const readOnly = await issueKey(fx, brandA, { permissions: ['products.read'] });
      const response = await request(t.http)
        .post('/catalog/products')
        .set(readOnly.headers)
        .send({ name: 'x', article: 'RO', priceKopeks: 1 })
        .expect(403);
      expect(response.body.error).toBe('Forbidden: Missing permission products.write');
    });
  });

  describe('stock', () => {
    it('GET /inventory/stock lists every size of the brand', async () => {
      const product = await createProduct(fx, brandA, {
        article: 'ST-1',
        storefrontArticle: 'SF-ST-1',
        priceKopeks: 1,
        sizes: [{ name: 'S', stock: 7 }],
      });
      const response = await request(t.http).get('/inventory/stock').set(stockKey.headers).expect(200);
      expect(response.body.items).toContainEqual({
        productId: product.id,
        sizeId: product.sizes[0].id,
        article: 'ST-1',
        storefrontArticle: 'SF-ST-1',
        size: 'S',
        stock: 7,
      });
    });

    it('POST /inventory/adjustments → 201, one ledger row with the reason; never to zero delta or another brand', async () => {
      const product = await createProduct(fx, brandA, {
        article: 'ADJ-1',
        priceKopeks: 1,
        sizes: [{ name: 'S', stock: 5 }],
      });
      const sizeId = product.sizes[0].id;
      const response = await request(t.http)
        .post('/inventory/adjustments')
        .set(stockKey.headers)
        .send({ sizeId, delta: -7, reason: 'stocktake' })
        .expect(201);
      expect(response.body).toEqual({ sizeId, productId: product.id, delta: -7, reason: 'stocktake', stock: -2 });
      expect(await stockAndLedger(db.url, sizeId)).toEqual({ stock: -2, ledger: -2 });
      const zero = await request(t.http)
        .post('/inventory/adjustments')
        .set(stockKey.headers)
        .send({ sizeId, delta: 0, reason: 'x' })
        .expect(400);
      expect(zero.body.error).toBe('delta must not be 0');
      const foreign = await createProduct(fx, brandB, {
        article: 'ADJ-B',
        priceKopeks: 1,
        sizes: [{ name: 'S', stock: 5 }],
      });
      const cross = await request(t.http)
        .post('/inventory/adjustments')
        .set(stockKey.headers)
        .send({ sizeId: foreign.sizes[0].id, delta: 1, reason: 'x' })
        .expect(403);
      expect(cross.body.error).toBe('Forbidden: brand not allowed');
      expect(await stockAndLedger(db.url, foreign.sizes[0].id)).toEqual({ stock: 5, ledger: 5 });
      await request(t.http)
        .post('/inventory/adjustments')
        .set(stockKey.headers)
        .send({ sizeId: 99999999, delta: 1, reason: 'x' })
        .expect(404);
    });
    // What the schema itself refuses (another brand's size in the ledger, a line's size of another
    // product) is test/medium/catalog-inventory.medium-spec.ts's.
  });

  describe('production API', () => {
    it('catalog lists the brand’s products with sizes and stock; queue lists sizes below zero', async () => {
      const site = await siteWithKey(fx, brandA);
      const product = await createProduct(fx, brandA, {
        article: 'Q-1',
        priceKopeks: 1,
        sizes: [
          { name: 'S', stock: -4 },
          { name: 'M', stock: 1 },
        ],
      });
      const catalog = await request(t.http).get('/production-api/catalog').set(site.headers).expect(200);
      expect(catalog.body.items).toContainEqual(
        expect.objectContaining({
          id: product.id,
          article: 'Q-1',
          sizes: [expect.objectContaining({ name: 'S', stock: -4 }), expect.objectContaining({ name: 'M', stock: 1 })],
        }),
      );
      const queue = await request(t.http).get('/production-api/queue').set(site.headers).expect(200);
      expect(queue.body.items).toContainEqual({
        productId: product.id,
        sizeId: product.sizes[0].id,
        article: 'Q-1',
        name: 'Product Q-1',
        size: 'S',
        stock: -4,
        quantityShort: 4,
      });
      expect(queue.body.items.every((i: { stock: number }) => i.stock < 0)).toBe(true);
    });

    it('acceptances add finished goods by the own article (ledgered), all or nothing', async () => {
      const site = await siteWithKey(fx, brandA);
      const product = await createProduct(fx, brandA, {
        article: 'ACC-1',
        storefrontArticle: 'SF-ACC-1',
        priceKopeks: 1,
        sizes: [{ name: 'S', stock: -3 }, { name: 'M' }],
      });
      const accepted = await request(t.http)
        .post('/production-api/acceptances')
        .set(site.headers)
        .send({
          items: [
            { article: 'ACC-1', size: 's', quantity: 5 },
            { article: 'ACC-1', size: 'M', quantity: 2 },
          ],
        })
        .expect(201);
      expect(accepted.body).toMatchObject({
        id: expect.any(Number),
        siteId: site.siteId,
        items: [
          { sizeId: product.sizes[0].id, quantity: 5, stock: 2 },
          { sizeId: product.sizes[1].id, quantity: 2, stock: 2 },
        ],
      });
      expect(await stockAndLedger(db.url, product.sizes[0].id)).toEqual({ stock: 2, ledger: 2 });

      const movementsBefore = await countRows(db.url, 'stock_movements');
      const refused = await request(t.http)
        .post('/production-api/acceptances')
        .set(site.headers)
        .send({
          items: [
            { article: 'ACC-1', size: 'S', quantity: 1 },
            { article: 'SF-ACC-1', size: 'S', quantity: 1 },
          ],
        })
        .expect(422);
      expect(refused.body.error).toBe('items.1: article "SF-ACC-1" matches no product');
      expect(await countRows(db.url, 'stock_movements')).toBe(movementsBefore);
      expect(await stockAndLedger(db.url, product.sizes[0].id)).toEqual({ stock: 2, ledger: 2 });
    });

    it('a site never reaches another brand’s catalog', async () => {
      const siteB = await siteWithKey(fx, brandB);
      await createProduct(fx, brandA, { article: 'ONLY-A', priceKopeks: 1, sizes: [{ name: 'S' }] });
      const response = await request(t.http)
        .post('/production-api/acceptances')
        .set(siteB.headers)
        .send({ items: [{ article: 'ONLY-A', size: 'S', quantity: 1 }] })
        .expect(422);
      expect(response.body.error).toBe('items.0: article "ONLY-A" matches no product');
    });
  });

  describe('platform orders', () => {
    it('POST /orders/admin → 201 {order}: new, payment pending, stock untouched', async () => {
      const writer = await issueKey(fx, brandA, { permissions: ['orders.write', 'orders.read'] });
      const product = await createProduct(fx, brandA, {
        article: 'PO-1',
        priceKopeks: 1000,
        sizes: [
          { name: 'S', stock: 2 },
          { name: 'M', priceKopeks: 1500, stock: 2 },
        ],
      });
      const response = await request(t.http)
        .post('/orders/admin')
        .set(writer.headers)
        .send({
          recipient: { fullName: 'Sidorov Semyon', phone: '+7 900 111 22 33', email: 's@example.com' },
          items: [
            { sizeId: product.sizes[0].id, quantity: 2 },
            { sizeId: product.sizes[1].id, quantity: 1, priceKopeks: 1200 },
          ],
          delivery: { city: 'Omsk', deliveryCostKopeks: 500 },
          comment: 'phone order',
        })
        .expect(201);
      expect(response.body.order).toMatchObject({
        source: 'platform',
        partnerOrderId: null,
        status: 'new',
        paymentStatus: 'pending',
        itemsTotalKopeks: 3200,
        deliveryCostKopeks: 500,
        totalKopeks: 3700,
        recipient: { surname: 'Sidorov', firstName: 'Semyon', patronymic: null },
        delivery: { city: 'Omsk' },
        items: [
          { sizeId: product.sizes[0].id, quantity: 2, priceKopeks: 1000 },
          { sizeId: product.sizes[1].id, quantity: 1, priceKopeks: 1200 },
        ],
      });
      expect(await stockAndLedger(db.url, product.sizes[0].id)).toEqual({ stock: 2, ledger: 2 });
    });

    it('refuses unknown sizes (422), another brand’s sizes (403), and callers without orders.write', async () => {
      const writer = await issueKey(fx, brandA, { permissions: ['orders.write'] });
      const recipient = { fullName: 'A B', phone: '1' };
      const unknown = await request(t.http)
        .post('/orders/admin')
        .set(writer.headers)
        .send({ recipient, items: [{ sizeId: 99999999, quantity: 1 }] })
        .expect(422);
      expect(unknown.body.error).toBe('items.0: size 99999999 does not exist');
      const foreign = await createProduct(fx, brandB, { article: 'PO-B', priceKopeks: 1, sizes: [{ name: 'S' }] });
      const cross = await request(t.http)
        .post('/orders/admin')
        .set(writer.headers)
        .send({ recipient, items: [{ sizeId: foreign.sizes[0].id, quantity: 1 }] })
        .expect(403);
      expect(cross.body.error).toBe('Forbidden: brand not allowed');
      const reader = await issueKey(fx, brandA, { permissions: ['orders.read'] });
      const denied = await request(t.http)
        .post('/orders/admin')
        .set(reader.headers)
        .send({ recipient, items: [{ sizeId: 1, quantity: 1 }] })
        .expect(403);
      expect(denied.body.error).toBe('Forbidden: Missing permission orders.write');
    });
  });
});
