import { connect } from 'node:net';
import request from 'supertest';
import { createProduct, issueKey, journal, siteWithKey, type IssuedKey } from '../support/fixtures';
import { CARRIER_SECRET, PAYMENT_SECRET, postSigned } from '../support/signed';
import { stockAndLedger } from '../support/stock-probe';
import { type SharedSuite, type Suite } from '../support/suite';
import { bearer } from '../support/test-app';
import { withClient } from '../support/test-database';

/**
 * The inputs an outside test found answered with 500 or acted on wrongly, one case each: every one
 * must get a clear 4xx in the contract's error shape and change nothing.
 */
export function describeHostileInput(shared: SharedSuite): void {
  describe('hostile input', () => {
    let s: Suite;
    let brand: number;
    let otherBrand: number;
    let full: IssuedKey;
    let site: Awaited<ReturnType<typeof siteWithKey>>;
    let product: Awaited<ReturnType<typeof createProduct>>;
    let otherProduct: Awaited<ReturnType<typeof createProduct>>;

    beforeAll(async () => {
      s = shared.suite;
      brand = await s.fx.brand();
      otherBrand = await s.fx.brand();
      full = await issueKey(s.fx, brand, { fullAccess: true });
      site = await siteWithKey(s.fx, brand);
      product = await createProduct(s.fx, brand, {
        article: 'H-1',
        storefrontArticle: 'SF-H',
        priceKopeks: 100,
        sizes: [{ name: 'S', stock: 5 }],
      });
      otherProduct = await createProduct(s.fx, otherBrand, {
        article: 'O-1',
        priceKopeks: 100,
        sizes: [{ name: 'S' }],
      });
    });

    const admin = () => bearer(s.fx.admin);
    const errorShape = (body: Record<string, unknown>, status: number) => {
      expect(typeof body.error).toBe('string');
      expect((body.error as string).length).toBeGreaterThan(0);
      expect(typeof body.requestId).toBe('string');
      if (status === 400) expect(Array.isArray(body.details)).toBe(true);
    };

    const storefrontOrder = (over: Record<string, unknown> = {}) => ({
      partnerOrderId: `P-${Math.random()}`,
      recipient: { fullName: 'A B', phone: '+79120000000' },
      items: [{ article: 'SF-H', size: 'S', quantity: 1 }],
      ...over,
    });

    describe('a NUL character in a string field → 400, nothing written', () => {
      const nul = 'a\u0000b';
      const cases: Array<[string, () => request.Test]> = [
        ['POST /auth/login', () => request(s.t.http).post('/auth/login').send({ email: nul, password: 'x' })],
        [
          'POST /admin/brands',
          () => request(s.t.http).post('/admin/brands').set(admin()).send({ name: nul, slug: 'nul-brand' }),
        ],
        [
          'POST /admin/users',
          () =>
            request(s.t.http)
              .post('/admin/users')
              .set(admin())
              .send({ email: 'x@y.example', password: `pass${nul}word` }),
        ],
        [
          'POST integration-keys',
          () =>
            request(s.t.http)
              .post(`/admin/brands/${brand}/integration-keys`)
              .set(admin())
              .send({ name: nul, fullAccess: true }),
        ],
        [
          'POST production-sites',
          () => request(s.t.http).post(`/admin/brands/${brand}/production-sites`).set(admin()).send({ name: nul }),
        ],
        [
          'POST /catalog/products',
          () =>
            request(s.t.http)
              .post('/catalog/products')
              .set(full.headers)
              .send({ name: nul, article: 'N', priceKopeks: 1 }),
        ],
        [
          'PATCH /catalog/products',
          () =>
            request(s.t.http)
              .patch(`/catalog/products/${product.id}`)
              .set(full.headers)
              .send({ attributes: { k: nul } }),
        ],
        [
          'POST /inventory/adjustments',
          () =>
            request(s.t.http)
              .post('/inventory/adjustments')
              .set(full.headers)
              .send({ sizeId: product.sizes[0].id, delta: 1, reason: nul }),
        ],
        [
          'POST /orders/admin',
          () =>
            request(s.t.http)
              .post('/orders/admin')
              .set(full.headers)
              .send({
                recipient: { fullName: nul, phone: '+79120000000' },
                items: [{ sizeId: product.sizes[0].id, quantity: 1 }],
              }),
        ],
        [
          'storefront webhook',
          () =>
            request(s.t.http)
              .post('/orders/integrations/partner/webhook')
              .set(full.headers)
              .send(storefrontOrder({ comment: nul })),
        ],
        [
          'production acceptances',
          () =>
            request(s.t.http)
              .post('/production-api/acceptances')
              .set(site.headers)
              .send({ items: [{ article: nul, size: 'S', quantity: 1 }] }),
        ],
        [
          'payment webhook',
          () =>
            postSigned(s.t.http, '/payments/webhook', PAYMENT_SECRET, {
              eventId: nul,
              orderNumber: '1',
              amountKopeks: 1,
              status: 'failed',
              paidAt: '2026-11-22T10:00:00Z',
            }),
        ],
        [
          'carrier webhook',
          () =>
            postSigned(s.t.http, '/carrier/webhook', CARRIER_SECRET, {
              eventId: nul,
              trackingNumber: 'T',
              status: 'accepted',
              occurredAt: '2026-11-22T10:00:00Z',
            }),
        ],
      ];
      it.each(cases)('%s', async (_name, send) => {
        const before = await rowCounts();
        const response = await send();
        expect(response.status).toBe(400);
        errorShape(response.body, 400);
        expect(response.body.details.join(' ')).toMatch(/NUL/);
        expect(await rowCounts()).toEqual(before);
      });
    });

    it('JSON nested thousands deep → 400 at parse time on every body', async () => {
      const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
      const deepArray = '['.repeat(5000) + ']'.repeat(5000);
      for (const [path, auth] of [
        ['/auth/login', {}],
        ['/catalog/products', full.headers],
        ['/orders/integrations/partner/webhook', full.headers],
        ['/production-api/acceptances', site.headers],
      ] as const) {
        for (const body of [deep, deepArray]) {
          const response = await request(s.t.http)
            .post(path)
            .set(auth)
            .set('Content-Type', 'application/json')
            .send(body);
          expect(response.status).toBe(400);
          errorShape(response.body, 400);
          expect(response.body.error).toMatch(/nest/i);
        }
      }
    });

    it('null where a PATCH expects a value, arrays where objects are expected → 400', async () => {
      const siteId = site.siteId;
      const cases: Array<() => request.Test> = [
        () =>
          request(s.t.http)
            .patch(`/admin/brands/${brand}/production-sites/${siteId}`)
            .set(admin())
            .send({ active: null }),
        () =>
          request(s.t.http)
            .patch(`/admin/brands/${brand}/production-sites/${siteId}`)
            .set(admin())
            .send({ name: null }),
        () => request(s.t.http).patch(`/admin/users/${s.fx.admin.userId}`).set(admin()).send({ active: null }),
        () => request(s.t.http).patch(`/catalog/products/${product.id}`).set(full.headers).send({ name: null }),
        () => request(s.t.http).patch(`/catalog/products/${product.id}`).set(full.headers).send({ priceKopeks: null }),
        () =>
          request(s.t.http)
            .patch(`/catalog/products/${product.id}`)
            .set(full.headers)
            .send({ sizes: [[]] }),
        () =>
          request(s.t.http)
            .post('/catalog/products')
            .set(full.headers)
            .send({ name: 'n', article: 'ARR', priceKopeks: 1, sizes: [[]] }),
        () =>
          request(s.t.http)
            .post('/catalog/products')
            .set(full.headers)
            .send({ name: 'n', article: 'ARR', priceKopeks: 1, sizes: [null] }),
        () =>
          request(s.t.http)
            .post('/orders/integrations/partner/webhook')
            .set(full.headers)
            .send(storefrontOrder({ items: [[]] })),
        () =>
          request(s.t.http)
            .post('/orders/integrations/partner/webhook')
            .set(full.headers)
            .send(storefrontOrder({ recipient: [] })),
        () =>
          request(s.t.http)
            .post('/orders/admin')
            .set(full.headers)
            .send({ recipient: { fullName: 'A', phone: '+79120000000' }, items: [[1]] }),
        () =>
          request(s.t.http)
            .post('/production-api/acceptances')
            .set(site.headers)
            .send({ items: [[]] }),
      ];
      for (const send of cases) {
        const before = await rowCounts();
        const response = await send();
        expect({ status: response.status, body: response.body }).toEqual({
          status: 400,
          body: expect.objectContaining({ details: expect.any(Array) }),
        });
        errorShape(response.body, 400);
        expect(await rowCounts()).toEqual(before);
      }
      const unchanged = await request(s.t.http).get(`/catalog/products/${product.id}`).set(full.headers).expect(200);
      expect(unchanged.body.name).toBe('Product H-1');
    });

    describe('strict bodies: unknown properties, null and bodies that are not objects → 400 naming the problem', () => {
      const refused = async (call: request.Test, details: string[]) => {
        const before = await rowCounts();
        const response = await call;
        expect({ status: response.status, details: response.body.details }).toEqual({ status: 400, details });
        errorShape(response.body, 400);
        expect(await rowCounts()).toEqual(before);
      };

      it('a misspelt property of a PATCH is refused, not dropped', async () => {
        await refused(
          request(s.t.http).patch(`/catalog/products/${product.id}`).set(full.headers).send({ storefrontArticel: 'X' }),
          ['property storefrontArticel should not exist'],
        );
        await refused(
          request(s.t.http)
            .patch(`/catalog/products/${product.id}`)
            .set(full.headers)
            .send({ sizes: [{ name: 'S', prise: 1 }], colour: 'red' }),
          ['property colour should not exist', 'property sizes.0.prise should not exist'],
        );
      });

      it('a JSON null or a list as the body is refused, on a PATCH and on a route that takes no body', async () => {
        for (const raw of ['null', '[]'])
          await refused(
            request(s.t.http)
              .patch(`/catalog/products/${product.id}`)
              .set(full.headers)
              .set('Content-Type', 'application/json')
              .send(raw),
            ['Request body must be a JSON object'],
          );
        const revoke = `/admin/brands/${brand}/production-sites/${site.siteId}/keys/${site.keyId}/revoke`;
        await refused(
          request(s.t.http).post(revoke).set(admin()).set('Content-Type', 'application/json').send('null'),
          ['Request body must be a JSON object'],
        );
        await refused(request(s.t.http).post(revoke).set(admin()).send({ reason: 'x' }), [
          'property reason should not exist',
        ]);
        await request(s.t.http).get('/production-api/me').set(site.headers).expect(200);
      });

      it('null for a field that is not nullable is refused; where null clears a value it still does', async () => {
        await refused(
          request(s.t.http).patch(`/catalog/products/${product.id}`).set(full.headers).send({ priceKopeks: null }),
          ['priceKopeks must be an integer from 0 to 100000000'],
        );
        await refused(
          request(s.t.http)
            .post('/admin/brands')
            .set(admin())
            .send({ name: 'N', slug: 'null-staff', staffEmail: null }),
          ['staffEmail must be an email'],
        );
        const erasures = `/admin/brands/${brand}/personal-data/erasures`;
        await refused(request(s.t.http).post(erasures).set(admin()).send({ phone: null }), ['phone must be a string']);
        await refused(request(s.t.http).post(erasures).set(admin()).send({ email: null }), ['email must be a string']);
        const orderId = await request(s.t.http).post(erasures).set(admin()).send({ orderId: null });
        expect([orderId.status, orderId.body.details?.[0]]).toEqual([400, 'orderId must be an integer number']);
        const cleared = await request(s.t.http)
          .patch(`/catalog/products/${otherProduct.id}`)
          .set(admin())
          .set('X-Brand-Id', String(otherBrand))
          .send({ storefrontArticle: null })
          .expect(200);
        expect(cleared.body.storefrontArticle).toBeNull();
      });

      it('the storefront webhook and its preflight still ignore properties they do not read', async () => {
        const body = storefrontOrder({
          utm: { source: 'x' },
          recipient: { fullName: 'A B', phone: '+79120000000', email: null },
        });
        await request(s.t.http).post('/orders/integrations/partner/preflight').set(full.headers).send(body).expect(200);
        await request(s.t.http).post('/orders/integrations/partner/webhook').set(full.headers).send(body).expect(201);
      });
    });

    it('a lone surrogate in an e-mail (a text cut inside an emoji) → 400 naming the field, on every route with one', async () => {
      const half = '\ud83d';
      const cases: Array<[request.Test, string]> = [
        [
          request(s.t.http)
            .post('/orders/integrations/partner/webhook')
            .set(full.headers)
            .send(
              storefrontOrder({ recipient: { fullName: 'A B', phone: '+79120000000', email: `a${half}@b.example` } }),
            ),
          'recipient.email',
        ],
        [
          request(s.t.http)
            .post('/orders/integrations/partner/preflight')
            .set(full.headers)
            .send(storefrontOrder({ recipient: { fullName: 'A B', phone: '+79120000000', email: half } })),
          'recipient.email',
        ],
        [
          request(s.t.http)
            .post('/orders/admin')
            .set(full.headers)
            .send({
              recipient: { fullName: 'A B', phone: '+79120000000', email: half },
              items: [{ sizeId: product.sizes[0].id, quantity: 1 }],
            }),
          'recipient.email',
        ],
        [
          request(s.t.http).post('/admin/brands').set(admin()).send({ name: 'N', slug: 'half', staffEmail: half }),
          'staffEmail',
        ],
        [
          request(s.t.http)
            .post('/admin/users')
            .set(admin())
            .send({ email: half, password: 'x'.repeat(12) }),
          'email',
        ],
      ];
      for (const [call, field] of cases) {
        const before = await rowCounts();
        const response = await call;
        expect({ status: response.status, error: response.body.error }).toEqual({
          status: 400,
          error: `${field} must be valid Unicode text (it holds a lone surrogate)`,
        });
        errorShape(response.body, 400);
        expect(await rowCounts()).toEqual(before);
      }
    });

    it('integers beyond their column → 400; money bounded so every total is exact', async () => {
      const huge = [2_147_483_648, 9_007_199_254_740_992, 1e20];
      for (const n of huge) {
        for (const send of [
          () =>
            request(s.t.http)
              .post('/inventory/adjustments')
              .set(full.headers)
              .send({ sizeId: n, delta: 1, reason: 'r' }),
          () =>
            request(s.t.http)
              .post('/orders/admin')
              .set(full.headers)
              .send({ recipient: { fullName: 'A', phone: '+79120000000' }, items: [{ sizeId: n, quantity: 1 }] }),
          () =>
            request(s.t.http)
              .post('/catalog/products')
              .set(full.headers)
              .send({ name: 'n', article: `BIG-${n}`, priceKopeks: n }),
        ]) {
          const response = await send();
          expect(response.status).toBe(400);
          errorShape(response.body, 400);
        }
      }
      for (const query of ['offset=9223372036854775808', 'offset=99999999999999999999']) {
        const response = await request(s.t.http).get(`/orders/admin/all?${query}`).set(full.headers);
        expect(response.status).toBe(400);
      }
      for (const query of ['sizeId=9223372036854775808', 'sizeId=2147483648']) {
        expect((await request(s.t.http).get(`/inventory/movements?${query}`).set(full.headers)).status).toBe(400);
      }
      expect(
        (await request(s.t.http).get('/admin/security-journal?before=9223372036854775808').set(admin())).status,
      ).toBe(400);

      // The largest order the bounds allow still has an exact, safe total.
      const maxPrice = 100_000_000;
      expect(
        (
          await request(s.t.http)
            .post('/catalog/products')
            .set(full.headers)
            .send({ name: 'n', article: 'P+', priceKopeks: maxPrice + 1 })
        ).status,
      ).toBe(400);
      const items = Array.from({ length: 500 }, () => ({
        article: 'SF-H',
        size: 'S',
        quantity: 100_000,
        priceKopeks: maxPrice,
      }));
      const big = await request(s.t.http)
        .post('/orders/integrations/partner/webhook')
        .set(full.headers)
        .send(storefrontOrder({ items, delivery: { city: 'X', deliveryCostKopeks: maxPrice } }));
      expect(big.status).toBe(201);
      expect(big.body.order.totalKopeks).toBe(500 * 100_000 * maxPrice + maxPrice);
      expect(Number.isSafeInteger(big.body.order.totalKopeks)).toBe(true);
    });

    it('stock pushed towards the integer limit by adjustments or acceptances → 422, nothing changes', async () => {
      const full32 = await createProduct(s.fx, brand, { article: 'I32', priceKopeks: 1, sizes: [{ name: 'S' }] });
      const sizeId = full32.sizes[0].id;
      await withClient(s.db.url, async (c) => {
        await c.query('UPDATE product_sizes SET stock = 2147483000 WHERE id = $1', [sizeId]);
        await c.query(
          `INSERT INTO stock_movements (brand_id, size_id, delta, reason, note) VALUES ($1, $2, 2147483000 - (SELECT coalesce(sum(delta), 0) FROM stock_movements WHERE size_id = $2), 'adjustment', 'test set-up')`,
          [brand, sizeId],
        );
      });
      const before = await stockAndLedger(s.db.url, sizeId);
      const adjusted = await request(s.t.http)
        .post('/inventory/adjustments')
        .set(full.headers)
        .send({ sizeId, delta: 1_000_000, reason: 'r' });
      expect(adjusted.status).toBe(422);
      errorShape(adjusted.body, 422);
      const accepted = await request(s.t.http)
        .post('/production-api/acceptances')
        .set(site.headers)
        .send({ items: [{ article: 'I32', size: 'S', quantity: 1_000_000 }] });
      expect(accepted.status).toBe(422);
      errorShape(accepted.body, 422);
      expect(await stockAndLedger(s.db.url, sizeId)).toEqual(before);
    });

    it('a superadministrator naming a brand that does not exist → 404, not a foreign-key failure', async () => {
      const missing = 2_000_000_000;
      const key = await request(s.t.http)
        .post(`/admin/brands/${missing}/integration-keys`)
        .set(admin())
        .send({ name: 'k', fullAccess: true });
      expect(key.status).toBe(404);
      expect(key.body.error).toBe('Not found');
      const created = await request(s.t.http)
        .post(`/admin/brands/${missing}/production-sites`)
        .set(admin())
        .send({ name: 'x' });
      expect(created.status).toBe(404);
      expect(created.body.error).toBe('Not found');
      const member = await request(s.t.http)
        .put(`/admin/brands/${missing}/members/${s.fx.admin.userId}`)
        .set(admin())
        .send({ permissions: ['orders.read'] });
      expect(member.status).toBe(404);
    });

    it.each([
      ['400, a bare LF in a header', 'X-Bad: a\nb\r\n', 400, true],
      ['431, headers too large', `X-Big: ${'x'.repeat(20_000)}\r\n`, 431, false],
    ])("the HTTP parser's own %s carries the contract's body and X-Request-Id", async (_, header, status, details) => {
      const address = s.t.app.getHttpServer().address();
      if (!address || typeof address === 'string') await s.t.app.listen(0, '127.0.0.1');
      const { port } = s.t.app.getHttpServer().address() as { port: number };
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(`GET /health HTTP/1.1\r\nHost: x\r\n${header}\r\n`),
        );
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString()));
        socket.on('end', () => resolve(data));
        // The service answers before it has read the whole request, so the rest may come back as a reset.
        socket.on('error', (error) => (data ? resolve(data) : reject(error)));
        setTimeout(() => socket.destroy(), 3000);
      });
      expect(raw).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      const [head, text] = [raw.slice(0, raw.indexOf('\r\n\r\n')), raw.slice(raw.indexOf('\r\n\r\n') + 4)];
      const body = JSON.parse(text) as { requestId: string };
      expect(body).toEqual({
        error: expect.any(String),
        ...(details ? { details: expect.any(Array) } : {}),
        requestId: expect.any(String),
      });
      expect(head.split('\r\n')).toContain(`X-Request-Id: ${body.requestId}`);
    });

    describe("an invalid percent-escape → 400 in the contract's shape, whatever the path", () => {
      const malformed = 'Malformed URL: a percent-escape in the path does not decode';
      it.each([
        ['GET', '/x/%ff'],
        ['GET', '/%'],
        ['GET', '/orders/%c0%ae'],
        ['GET', '/orders/admin/%ff'],
        ['GET', '/orders/admin/1%'],
        ['GET', '/orders/admin/%zz?limit=1'],
        ['POST', '/orders/admin/%c0%ae/cancel'],
        ['GET', '/health/%e2%82'],
      ])('%s %s', async (method, path) => {
        const response = await request(s.t.http)[method === 'GET' ? 'get' : 'post'](path).set(full.headers);
        expect({ status: response.status, body: response.body }).toEqual({
          status: 400,
          body: { error: malformed, details: [malformed], requestId: response.headers['x-request-id'] },
        });
      });
      it.each(['limit=%ff', 'offset=%', 'limit=%c0%ae'])('in a query parameter the route reads: %s', async (query) => {
        const response = await request(s.t.http).get(`/orders/admin/all?${query}`).set(full.headers);
        expect(response.status).toBe(400);
        errorShape(response.body, 400);
        expect(response.body.requestId).toBe(response.headers['x-request-id']);
      });
      it('a well-formed escape is not refused as malformed', async () => {
        await request(s.t.http).get('/orders/admin/all?limit=%31').set(full.headers).expect(200);
        await request(s.t.http).get('/health%2F').expect(404);
      });
      it("a parameter too long for any id reaches its route's check, as on Express", async () => {
        const response = await request(s.t.http)
          .get(`/orders/admin/${'1'.repeat(150)}`)
          .set(full.headers);
        expect(response.status).toBe(400);
        errorShape(response.body, 400);
        expect(response.body.requestId).toBe(response.headers['x-request-id']);
      });
    });

    describe('strict identifiers and numbers', () => {
      it.each(['0x1', '+1', '01', '%201', '1e0', '0.1e1', '1.0', '0', '-1', ' 1', '1%20'])(
        'path id %s never addresses record 1',
        async (raw) => {
          const key = await issueKey(s.fx, brand, { permissions: ['orders.read'] });
          const response = await request(s.t.http)
            .post(`/admin/brands/${brand}/integration-keys/${raw.replace('1', String(key.id))}/revoke`)
            .set(admin());
          expect([400, 404]).toContain(response.status);
          errorShape(response.body, response.status);
          await request(s.t.http).get('/orders/admin/all').set(key.headers).expect(200);
        },
      );
      it.each([
        'limit=1e2',
        'limit=',
        'offset=',
        'limit=0x10',
        'limit=+5',
        'limit=05',
        'offset=1.0',
        'limit=5&limit=6',
      ])('query %s → 400', async (query) => {
        const response = await request(s.t.http).get(`/orders/admin/all?${query}`).set(full.headers);
        expect(response.status).toBe(400);
        errorShape(response.body, 400);
      });
      it('X-Brand-Id is canonical too', async () => {
        const response = await request(s.t.http).get('/orders/admin/all').set(admin()).set('X-Brand-Id', `0${brand}`);
        expect(response.status).toBe(400);
      });
    });

    it('product attributes are bounded in depth, keys and size', async () => {
      let deep: Record<string, unknown> = { leaf: 1 };
      for (let i = 0; i < 12; i++) deep = { nested: deep };
      const wide = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]));
      const big = { text: 'x'.repeat(17_000) };
      for (const attributes of [deep, wide, big]) {
        const response = await request(s.t.http)
          .post('/catalog/products')
          .set(full.headers)
          .send({ name: 'n', article: `ATTR-${Math.random()}`, priceKopeks: 1, attributes });
        expect(response.status).toBe(400);
        expect(response.body.details.join(' ')).toMatch(/attributes/);
      }
      const fine = { colour: 'grey', care: { wash: 30, dry: ['flat'] } };
      const ok = await request(s.t.http)
        .post('/catalog/products')
        .set(full.headers)
        .send({ name: 'n', article: 'ATTR-OK', priceKopeks: 1, attributes: fine });
      expect(ok.status).toBe(201);
      expect(ok.body.attributes).toEqual(fine);
    });

    it("another brand's size in the movements filter → 403 and a journal entry", async () => {
      const response = await request(s.t.http)
        .get(`/inventory/movements?sizeId=${otherProduct.sizes[0].id}`)
        .set(full.headers);
      expect(response.status).toBe(403);
      expect(response.body.error).toBe('Forbidden: brand not allowed');
      const entry = (await journal(s.fx)).find(
        (e) => e.type === 'brand_violation' && e.details.resource === 'product_size',
      );
      expect(entry).toMatchObject({
        brandId: brand,
        targetBrandId: otherBrand,
        details: { resource: 'product_size', id: otherProduct.sizes[0].id },
      });
      expect((await request(s.t.http).get('/inventory/movements?sizeId=2000000000').set(full.headers)).status).toBe(
        404,
      );
    });

    it('production API: a present but malformed Authorization header is an invalid key, not a missing one', async () => {
      for (const header of ['Basic abc', 'Bearer', 'Bearer ', 'Token x', site.key]) {
        const response = await request(s.t.http).get('/production-api/me').set('Authorization', header);
        expect({ header, status: response.status, error: response.body.error }).toEqual({
          header,
          status: 401,
          error: 'Invalid or inactive API key',
        });
      }
      const missing = await request(s.t.http).get('/production-api/me');
      expect(missing.body.error).toBe('Missing Authorization: Bearer <apiKey>');
    });

    describe('more than one Authorization header → 400 before any credential is looked at', () => {
      const repeated = 'Authorization must be sent only once';

      /** A GET with these header lines exactly as written (clients merge or drop repeated names). */
      async function rawGet(path: string, lines: string[]) {
        const address = s.t.app.getHttpServer().address();
        if (!address || typeof address === 'string') await s.t.app.listen(0, '127.0.0.1');
        const { port } = s.t.app.getHttpServer().address() as { port: number };
        const raw = await new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () =>
            socket.write(
              `GET ${path} HTTP/1.1\r\nHost: x\r\n${lines.map((l) => `${l}\r\n`).join('')}Connection: close\r\n\r\n`,
            ),
          );
          let data = '';
          socket.on('data', (chunk) => (data += chunk.toString()));
          socket.on('end', () => resolve(data));
          socket.on('error', reject);
        });
        const [head, body] = [raw.slice(0, raw.indexOf('\r\n\r\n')), raw.slice(raw.indexOf('\r\n\r\n') + 4)];
        return {
          status: Number(head.split(' ')[1]),
          requestId: /^x-request-id: (.*)$/im.exec(head)?.[1],
          body: JSON.parse(body) as Record<string, unknown>,
        };
      }

      it.each([
        ['an integration key, valid first', 'integration', true, '/orders/admin/all'],
        ['an integration key, valid last', 'integration', false, '/orders/admin/all'],
        ['a site key, valid first', 'site', true, '/production-api/me'],
        ['a site key, valid last', 'site', false, '/production-api/me'],
        ['a session, valid first', 'session', true, '/admin/brands'],
        ['a session, valid last', 'session', false, '/admin/brands'],
      ])('%s', async (_name, kind, validFirst, path) => {
        // Pinned elsewhere: a look at this key would journal ip_not_allowed and record its use.
        const pinned = await request(s.t.http)
          .post(`/admin/brands/${brand}/integration-keys`)
          .set(admin())
          .send({ name: 'pinned', permissions: ['orders.read'], allowedIps: ['10.0.0.0/8'] })
          .expect(201);
        const valid = { integration: pinned.body.key, site: site.key, session: s.fx.admin.token }[kind];
        const lines = [`Authorization: Bearer ${valid}`, 'authorization: Bearer csh_at_not-a-key'];
        const newestBefore = (await journal(s.fx, 1))[0]?.id;
        const response = await rawGet(path, validFirst ? lines : lines.reverse());
        expect(response).toEqual({
          status: 400,
          requestId: response.body.requestId,
          body: { error: repeated, details: [repeated], requestId: expect.any(String) },
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect((await journal(s.fx, 1))[0]?.id).toBe(newestBefore);
        const key = await request(s.t.http)
          .get(`/admin/brands/${brand}/integration-keys/${pinned.body.id}`)
          .set(admin())
          .expect(200);
        expect(key.body.lastUsedAt).toBeNull();
      });

      it('the same value twice, in any letter case, is refused too; one header still works', async () => {
        const twice = await rawGet('/orders/admin/all', [
          `Authorization: ${full.headers.Authorization}`,
          `AUTHORIZATION: ${full.headers.Authorization}`,
        ]);
        expect(twice.status).toBe(400);
        expect((await rawGet('/orders/admin/all', [`authorization: ${full.headers.Authorization}`])).status).toBe(200);
      });

      it('on routes that need no credential too', async () => {
        const lines = [`Authorization: ${full.headers.Authorization}`, 'Authorization: Bearer other'];
        for (const path of ['/health', '/dashboard/']) {
          const response = await rawGet(path, lines);
          expect({ path, status: response.status, error: response.body.error }).toEqual({
            path,
            status: 400,
            error: repeated,
          });
        }
      });
    });

    it('a body in another charset → 415', async () => {
      const body = Buffer.from(JSON.stringify({ email: 'a@b.example', password: 'x' }), 'utf16le');
      for (const type of [
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'application/json;charset="UTF-16LE"',
      ]) {
        const response = await request(s.t.http).post('/auth/login').set('Content-Type', type).send(body);
        expect(response.status).toBe(415);
        errorShape(response.body, 415);
      }
      for (const type of [
        'application/json; charset=utf-8',
        'application/json; charset=UTF-8',
        'application/json;charset="utf-8"',
      ]) {
        const response = await request(s.t.http)
          .post('/auth/login')
          .set('Content-Type', type)
          .send(JSON.stringify({ email: 'a@b.example', password: 'x' }));
        expect(response.status).toBe(401);
      }
    });

    async function rowCounts(): Promise<Record<string, number>> {
      return withClient(s.db.url, async (c) => {
        const tables = [
          'brands',
          'users',
          'integration_keys',
          'production_sites',
          'products',
          'product_sizes',
          'stock_movements',
          'orders',
          'inbound_events',
          'outbox',
        ];
        const counts: Record<string, number> = {};
        for (const table of tables)
          counts[table] = Number((await c.query(`SELECT count(*) FROM ${table}`)).rows[0].count);
        return counts;
      });
    }
  });
}
