import { Client } from 'pg';
import request from 'supertest';
import { startReferenceServer } from '../../bench/reference';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { runMigrationsExclusively } from '../../src/database/migration-runner';
import { createProduct, Fixtures, issueKey, journal } from '../support/fixtures';
import { seedPartnerCatalog } from '../support/partner-bodies';
import { seedOrder, seedOrderOn } from '../support/orders-seed';
import { freePort } from '../support/service-process';
import { type SharedSuite } from '../support/suite';
import { withClient, type TestDatabase } from '../support/test-database';
import { bearer, type TestApp } from '../support/test-app';

const WEBHOOK = '/orders/integrations/partner/webhook';

export function describeOrdersAdmin(shared: SharedSuite): void {
  describe('GET /orders/admin/all and /orders/admin/:orderId', () => {
    let db: TestDatabase;
    let t: TestApp;
    let fx: Fixtures;
    let brandA: number;
    let brandB: number;
    let reader: { headers: { Authorization: string } };
    const ordersA: number[] = [];

    beforeAll(async () => {
      ({ db, t, fx } = shared.suite);
      brandA = await fx.brand();
      brandB = await fx.brand();
      for (let i = 0; i < 3; i++) ordersA.push(await seedOrder(db.url, brandA));
      await seedOrder(db.url, brandB);
      reader = await issueKey(fx, brandA, { permissions: ['orders.read'] });
    });

    it('lists the brand’s orders only, newest first, with the total', async () => {
      const response = await request(t.http).get('/orders/admin/all').set(reader.headers).expect(200);
      expect(response.body.total).toBe(3);
      expect(response.body.items.map((o: { id: number }) => o.id)).toEqual([...ordersA].reverse());
    });

    // PostgreSQL writes the list's JSON (order-list.query): it must read as the service's own JSON does.
    it('each line holds the order as stored: the contract’s fields, numbers as numbers, dates as toISOString writes them', async () => {
      const brand = await fx.brand();
      const [plain, odd] = [await seedOrder(db.url, brand), await seedOrder(db.url, brand)];
      const own = await issueKey(fx, brand, { permissions: ['orders.read'] });
      await withClient(db.url, (c) =>
        c.query(
          `UPDATE orders SET ordered_at = '2026-01-02T03:04:05.006Z', delivery_status = 'delivered', stock_shortage = true,
                           total_kopeks = 9007199254740991, recipient_full_name = 'Иванов "Ivan" \\ Tab	End'
          WHERE id = $1`,
          [odd],
        ),
      );
      const response = await request(t.http).get('/orders/admin/all?limit=50').set(own.headers).expect(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body.total).toBe(2);
      expect(response.body.items.map((item: { id: number }) => item.id)).toEqual([odd, plain]);
      const stored = await withClient(
        db.url,
        async (c) => (await c.query('SELECT * FROM orders WHERE id = $1', [odd])).rows[0],
      );
      const line = response.body.items.find((item: { id: number }) => item.id === odd);
      // In the contract's order: the keys as well as the values.
      const expected = {
        id: odd,
        orderNumber: stored.order_number,
        source: 'storefront',
        partnerOrderId: stored.partner_order_id,
        status: 'paid',
        paymentStatus: 'paid',
        deliveryStatus: 'delivered',
        stockShortage: true,
        recipientName: 'Иванов "Ivan" \\ Tab\tEnd',
        totalKopeks: 9007199254740991,
        orderedAt: '2026-01-02T03:04:05.006Z',
        createdAt: (stored.created_at as Date).toISOString(),
        updatedAt: (stored.updated_at as Date).toISOString(),
        personalDataErasedAt: null,
      };
      expect(line).toStrictEqual(expected);
      expect(Object.keys(line)).toEqual(Object.keys(expected));
      const second = response.body.items.find((item: { id: number }) => item.id === plain);
      expect(second).toMatchObject({ deliveryStatus: null, stockShortage: false, totalKopeks: 180000 });
    });

    it('the bench’s bare reference server answers the list exactly as the service does (so the bench compares like with like)', async () => {
      const port = await freePort();
      const reference = await startReferenceServer(db.url, port, 2);
      try {
        for (const query of ['limit=1', 'limit=2&offset=1', 'limit=50', 'offset=10']) {
          const service = await request(t.http).get(`/orders/admin/all?${query}`).set(reader.headers).expect(200);
          const bare = await fetch(`http://127.0.0.1:${port}/orders/admin/all?${query}`, {
            headers: { authorization: reader.headers.Authorization },
          });
          expect([bare.status, await bare.json()]).toEqual([200, service.body]);
        }
      } finally {
        reference.kill();
      }
    });

    it('pages with limit and offset', async () => {
      const page = await request(t.http).get('/orders/admin/all?limit=1&offset=1').set(reader.headers).expect(200);
      expect(page.body).toMatchObject({ total: 3, items: [{ id: ordersA[1] }] });
    });

    it.each([['0'], ['201'], ['abc'], ['1.5'], ['-1']])('limit=%s gets 400', async (limit) => {
      const response = await request(t.http).get(`/orders/admin/all?limit=${limit}`).set(reader.headers).expect(400);
      expect(response.body.error).toMatch(/^limit must /);
    });

    // The key check rides in the list's statement (KeyCheckedByStatement): the guards' answers all the same.
    it('the key check in the list statement: revocation at once, 401/403 before 400, another brand sees its own', async () => {
      const key = await issueKey(fx, brandA, { permissions: ['orders.read'] });
      const list = (query: string, as = key) => request(t.http).get(`/orders/admin/all?${query}`).set(as.headers);
      await list('limit=1').expect(200);
      await request(t.http)
        .post(`/admin/brands/${brandA}/integration-keys/${key.id}/revoke`)
        .set(bearer(fx.admin))
        .expect(200);
      expect((await list('limit=1').expect(401)).body.error).toBe('Unauthorized');
      await list('limit=0').expect(401);
      const writer = await issueKey(fx, brandA, { permissions: ['orders.create_partner'] });
      expect((await list('limit=1', writer).expect(403)).body.error).toBe('Forbidden: Missing permission orders.read');
      await list('limit=0', writer).expect(403);
      const full = await issueKey(fx, brandB, { fullAccess: true });
      const ofB = await list('limit=50', full).expect(200);
      expect(ofB.body.items.length).toBeGreaterThan(0);
      expect(ofB.body.items.map((o: { id: number }) => o.id)).not.toContain(ordersA[0]);
    });

    it('limit=200 is allowed, and a negative offset is not', async () => {
      await request(t.http).get('/orders/admin/all?limit=200').set(reader.headers).expect(200);
      await request(t.http).get('/orders/admin/all?offset=-1').set(reader.headers).expect(400);
    });

    it('GET /orders/admin/:orderId answers the full order with the contract’s wire names', async () => {
      const response = await request(t.http).get(`/orders/admin/${ordersA[0]}`).set(reader.headers).expect(200);
      expect(Object.keys(response.body).sort()).toEqual(
        [
          'id',
          'orderNumber',
          'hash',
          'source',
          'partnerOrderId',
          'status',
          'paymentStatus',
          'deliveryStatus',
          'stockShortage',
          'orderedAt',
          'createdAt',
          'updatedAt',
          'itemsTotalKopeks',
          'deliveryCostKopeks',
          'totalKopeks',
          'promoCode',
          'comment',
          'recipient',
          'delivery',
          'carrierOrderUuid',
          'carrierTrackingNumber',
          'waybillUrl',
          'items',
          'paidAt',
          'carrierRegistrationFailedAt',
          'personalDataErasedAt',
        ].sort(),
      );
      expect(response.body).toMatchObject({
        id: ordersA[0],
        totalKopeks: 180000,
        deliveryCostKopeks: 30000,
        itemsTotalKopeks: 150000,
      });
      expect(Object.keys(response.body.recipient).sort()).toEqual([
        'email',
        'firstName',
        'fullName',
        'patronymic',
        'phone',
        'surname',
      ]);
      expect(Object.keys(response.body.delivery).sort()).toEqual(['city', 'cityCode', 'pvzAddress', 'pvzCode']);
    });

    it('an order of another brand: 403 Forbidden: brand not allowed, journaled; none with that id: 404', async () => {
      const foreign = await seedOrder(db.url, brandB);
      const response = await request(t.http).get(`/orders/admin/${foreign}`).set(reader.headers).expect(403);
      expect(response.body.error).toBe('Forbidden: brand not allowed');
      expect(
        (await journal(fx)).some(
          (e) => e.type === 'brand_violation' && e.details.id === foreign && e.targetBrandId === brandB,
        ),
      ).toBe(true);
      const missing = await request(t.http).get('/orders/admin/99999999').set(reader.headers).expect(404);
      expect(missing.body.error).toBe('Not found');
    });

    it('a session member reads their brand’s orders; a superadministrator names the brand', async () => {
      const member = await fx.member(brandA, ['orders.read']);
      const mine = await request(t.http).get('/orders/admin/all').set(bearer(member)).expect(200);
      expect(mine.body.total).toBe(3);
      const chosen = await request(t.http)
        .get('/orders/admin/all')
        .set(bearer(fx.admin))
        .set('X-Brand-Id', String(brandB))
        .expect(200);
      expect(chosen.body.total).toBe(2);
    });

    describe('the total is a kept count (brand_order_counts), exact in every case', () => {
      const totalOf = async (brand: number) => {
        const key = await issueKey(fx, brand, { permissions: ['orders.read'] });
        return (await request(t.http).get('/orders/admin/all?limit=1').set(key.headers).expect(200)).body
          .total as number;
      };
      const keptEqualsCounted = () =>
        withClient(db.url, async (c) => {
          const rows = await c.query(
            `SELECT b.id, (SELECT count(*) FROM orders o WHERE o.brand_id = b.id)::int AS counted,
                  (SELECT COALESCE(sum(orders), 0) FROM brand_order_counts k WHERE k.brand_id = b.id)::int AS kept
             FROM brands b`,
          );
          return rows.rows.filter((r) => r.counted !== r.kept);
        });

      it('a page past the end still carries it', async () => {
        const page = await request(t.http).get('/orders/admin/all?limit=5&offset=50').set(reader.headers).expect(200);
        expect(page.body).toEqual({ items: [], total: 3 });
      });

      it('while orders are written and removed at the same time', async () => {
        const brand = await fx.brand();
        const first = await Promise.all(Array.from({ length: 20 }, () => seedOrder(db.url, brand)));
        await Promise.all([
          ...Array.from({ length: 20 }, () => seedOrder(db.url, brand)),
          ...first
            .slice(0, 5)
            .map((id) => withClient(db.url, (c) => c.query('DELETE FROM orders WHERE id = $1', [id]))),
        ]);
        expect(await totalOf(brand)).toBe(35);
        expect(await keptEqualsCounted()).toEqual([]);
      });

      // The writing statements count their order themselves (PERF-30); the trigger counts the rest.
      it('storefront and platform orders, twins and refusals among them, each count once, beside orders inserted by hand', async () => {
        const brand = await fx.brand();
        await seedPartnerCatalog(fx, brand);
        const storefront = await issueKey(fx, brand, { permissions: ['orders.create_partner'] });
        const writer = await issueKey(fx, brand, { permissions: ['orders.write'] });
        const size = (await createProduct(fx, brand, { article: 'PL-1', priceKopeks: 100, sizes: [{ name: 'S' }] }))
          .sizes[0].id;
        const body = (n: number, article = 'SF-B') => ({
          partnerOrderId: `C-${n}`,
          recipient: { fullName: 'Ivanov Ivan', phone: '+7 900 000-00-00' },
          items: [{ article, size: 'One', quantity: 1 }],
          delivery: { city: 'Kazan' },
        });
        const sent = await Promise.all([
          // 10 orders, each sent twice at once: one creates it, the other reads it back.
          ...Array.from({ length: 20 }, (_, i) =>
            request(t.http)
              .post(WEBHOOK)
              .set(storefront.headers)
              .send(body(i % 10)),
          ),
          // Refused (no such article): nothing written, nothing counted.
          request(t.http).post(WEBHOOK).set(storefront.headers).send(body(99, 'NOPE')),
          ...Array.from({ length: 3 }, () =>
            request(t.http)
              .post('/orders/admin')
              .set(writer.headers)
              .send({ recipient: { fullName: 'A B', phone: '1' }, items: [{ sizeId: size, quantity: 1 }] }),
          ),
          ...Array.from({ length: 4 }, () => seedOrder(db.url, brand)),
        ]);
        const statuses = sent.flatMap((r) => (typeof r === 'number' ? [] : [r.status]));
        expect(statuses.filter((s) => s === 201)).toHaveLength(13);
        expect(statuses.filter((s) => s === 200)).toHaveLength(10);
        expect(statuses.filter((s) => s === 422)).toHaveLength(1);
        expect(await totalOf(brand)).toBe(17);
        expect(await keptEqualsCounted()).toEqual([]);
        const marked = await withClient(db.url, (c) =>
          c.query(
            `SELECT source, counted, count(*)::int AS n FROM orders WHERE brand_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
            [brand],
          ),
        );
        expect(marked.rows).toEqual([
          { source: 'platform', counted: true, n: 3 },
          { source: 'storefront', counted: false, n: 4 },
          { source: 'storefront', counted: true, n: 10 },
        ]);
        // Product and stock events: the migration test below goes back to a schema that knew neither.
        await withClient(db.url, (c) => c.query('DELETE FROM domain_events WHERE brand_id = $1', [brand]));
      });

      it("an open transaction's order does not hold up another connection's orders of the same brand", async () => {
        const brand = await fx.brand();
        const open = new Client({ connectionString: db.url });
        const others: Client[] = [];
        await open.connect();
        try {
          const slotOf = async (c: Client) => (await c.query('SELECT pg_backend_pid() % 64 AS slot')).rows[0].slot;
          // A connection whose count slot differs from the open transaction's (two in 64 share one).
          let other: Client;
          do {
            other = new Client({ connectionString: db.url });
            others.push(other);
            await other.connect();
          } while ((await slotOf(other)) === (await slotOf(open)));
          await open.query('BEGIN');
          await seedOrderOn(open, brand);
          // Counted by order id, one of 20 consecutive orders shares the open order's slot and waits.
          await other.query(`SET lock_timeout = '2s'`);
          for (let i = 0; i < 20; i++) await seedOrderOn(other, brand);
          await open.query('COMMIT');
          expect(await totalOf(brand)).toBe(21);
          expect(await keptEqualsCounted()).toEqual([]);
        } finally {
          await Promise.all([open, ...others].map((c) => c.end()));
        }
      });

      it('an order never moves to another brand, which would leave both counts wrong', async () => {
        const moved = withClient(db.url, (c) =>
          c.query('UPDATE orders SET brand_id = $1 WHERE id = $2', [brandB, ordersA[0]]),
        );
        await expect(moved).rejects.toThrow(`an order never changes brand (order ${ordersA[0]})`);
        expect(await keptEqualsCounted()).toEqual([]);
      });

      it('its migration counts the orders that exist when it runs', async () => {
        // Made through the API while the schema is the current one: the session check reads its newest columns.
        const brand = await fx.brand();
        const migrator = new DataSource(dataSourceOptions(db.url, 2));
        await migrator.initialize();
        try {
          // Back to before BrandOrderCounts, however many migrations came after it.
          const counted = async () =>
            (await migrator.query(`SELECT to_regclass('brand_order_counts') AS t`))[0].t !== null;
          // The events of the other suites on this app (stock, products) are newer than the migrations undone.
          await migrator.query(`DELETE FROM domain_events`);
          while (await counted()) await migrator.undoLastMigration({ transaction: 'each' });
          for (let i = 0; i < 4; i++) await seedOrder(db.url, brand);
          await runMigrationsExclusively(migrator);
          expect(await totalOf(brand)).toBe(4);
          expect(await keptEqualsCounted()).toEqual([]);
        } finally {
          await migrator.destroy();
        }
      });
    });
  });
}
