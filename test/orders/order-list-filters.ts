import request from 'supertest';
import { PreparedStatements, type Prepared } from '../../src/database/prepared';
import { filteredList } from '../../src/orders/order-list.query';
import { createProduct, issueKey, type IssuedKey } from '../support/fixtures';
import { CARRIER_SECRET, PAYMENT_SECRET, postSigned } from '../support/signed';
import { type SharedSuite, type Suite } from '../support/suite';
import { withClient } from '../support/test-database';
import { bearer } from '../support/test-app';

let seq = 0;
const next = () => `${process.pid}-${++seq}`;
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

interface Line {
  id: number;
  status: string;
  partnerOrderId: string | null;
  updatedAt: string;
}

/** The order list's filters and every order's `updatedAt` (contract §16). */
export function describeOrderListFilters(shared: SharedSuite): void {
  describe('order list filters and updatedAt', () => {
    let s: Suite;
    let brand: number;
    let storefront: IssuedKey;
    let clerk: IssuedKey;
    let reader: IssuedKey;

    const list = (query: string, key: IssuedKey = reader) =>
      request(s.t.http).get(`/orders/admin/all?${query}`).set(key.headers);
    const ids = (body: { items: Line[] }) => body.items.map((item) => item.id);
    const detail = async (id: number) =>
      (await request(s.t.http).get(`/orders/admin/${id}`).set(reader.headers).expect(200)).body as Line;

    /** A paid storefront order (carrier uuid `carrier` when given). */
    async function storefrontOrder(carrier?: string) {
      const partnerOrderId = `F-${next()}`;
      const created = await request(s.t.http)
        .post('/orders/integrations/partner/webhook')
        .set(storefront.headers)
        .send({
          partnerOrderId,
          recipient: { fullName: 'Petrov Ivan', phone: '+79001234567' },
          items: [{ article: 'SF-TEE', size: 'M', quantity: 1 }],
          ...(carrier ? { carrierOrderUuid: carrier } : {}),
        })
        .expect(201);
      return { id: created.body.order.id as number, partnerOrderId };
    }

    /** A new, unpaid platform order. */
    async function platformOrder() {
      const created = await request(s.t.http)
        .post('/orders/admin')
        .set(clerk.headers)
        .send({
          recipient: { fullName: 'Ivanova Maria', phone: '+79120000000' },
          items: [{ sizeId, quantity: 1 }],
          delivery: { city: 'Kazan', pvzCode: 'KZN1' },
        })
        .expect(201);
      return created.body.order as { id: number; orderNumber: string; totalKopeks: number; updatedAt: string };
    }

    const pay = (order: { orderNumber: string; totalKopeks: number }) =>
      postSigned(s.t.http, '/payments/webhook', PAYMENT_SECRET, {
        eventId: `pay-${next()}`,
        orderNumber: order.orderNumber,
        amountKopeks: order.totalKopeks,
        status: 'succeeded',
        paidAt: new Date().toISOString(),
      }).expect(200);

    const carrierSays = (carrierOrderUuid: string, status: string) =>
      postSigned(s.t.http, '/carrier/webhook', CARRIER_SECRET, {
        eventId: `car-${next()}`,
        carrierOrderUuid,
        status,
        occurredAt: new Date().toISOString(),
      }).expect(200);

    let sizeId: number;
    // Orders of `brand`, oldest first, with the state the filters are tested on.
    const made: Array<{ id: number; partnerOrderId: string | null; status: string }> = [];

    beforeAll(async () => {
      s = shared.suite;
      brand = await s.fx.brand();
      storefront = await issueKey(s.fx, brand, { permissions: ['orders.create_partner'] });
      clerk = await issueKey(s.fx, brand, {
        permissions: ['orders.read', 'orders.write', 'returns.read', 'returns.write'],
      });
      reader = await issueKey(s.fx, brand, { permissions: ['orders.read'] });
      const tee = await createProduct(s.fx, brand, {
        article: 'TEE',
        storefrontArticle: 'SF-TEE',
        priceKopeks: 150000,
        sizes: [{ name: 'M', stock: 1000 }],
      });
      sizeId = tee.sizes[0].id;
      // Another brand's orders, which no filter may reach.
      const other = await s.fx.brand();
      const otherStorefront = await issueKey(s.fx, other, { permissions: ['orders.create_partner'] });
      await createProduct(s.fx, other, {
        article: 'TEE',
        storefrontArticle: 'SF-TEE',
        priceKopeks: 1,
        sizes: [{ name: 'M' }],
      });
      await request(s.t.http)
        .post('/orders/integrations/partner/webhook')
        .set(otherStorefront.headers)
        .send({
          partnerOrderId: 'SHARED',
          recipient: { fullName: 'X', phone: '+79001234567' },
          items: [{ article: 'SF-TEE', size: 'M', quantity: 1 }],
        })
        .expect(201);
      for (let i = 0; i < 3; i++) {
        const o = await storefrontOrder();
        made.push({ ...o, status: 'paid' });
      }
      for (let i = 0; i < 2; i++) made.push({ id: (await platformOrder()).id, partnerOrderId: null, status: 'new' });
      const cancelled = await platformOrder();
      await request(s.t.http).post(`/orders/admin/${cancelled.id}/cancel`).set(clerk.headers).send({}).expect(200);
      made.push({ id: cancelled.id, partnerOrderId: null, status: 'cancelled' });
    }, 60_000);

    /** The ids of `made` that `keep` keeps, newest first. */
    const expected = (keep: (o: (typeof made)[number]) => boolean) =>
      made
        .filter(keep)
        .map((o) => o.id)
        .reverse();

    describe('each filter, alone and combined', () => {
      it('status: only the orders in that status, and total counts them', async () => {
        for (const status of ['paid', 'new', 'cancelled', 'shipped']) {
          const { body } = await list(`status=${status}`).expect(200);
          const want = expected((o) => o.status === status);
          expect(ids(body)).toEqual(want);
          expect(body.total).toBe(want.length);
          expect(body.items.every((item: Line) => item.status === status)).toBe(true);
        }
      });

      it('partnerOrderId: exactly that order, never another brand’s nor a prefix', async () => {
        const target = made[1];
        const { body } = await list(`partnerOrderId=${encodeURIComponent(target.partnerOrderId!)}`).expect(200);
        expect(body).toMatchObject({ total: 1, items: [{ id: target.id, partnerOrderId: target.partnerOrderId }] });
        const prefix = await list(`partnerOrderId=${encodeURIComponent(target.partnerOrderId!.slice(0, -1))}`).expect(
          200,
        );
        expect(prefix.body).toEqual({ items: [], total: 0 });
        expect((await list('partnerOrderId=SHARED').expect(200)).body).toEqual({ items: [], total: 0 });
      });

      it('updatedSince: the orders whose state changed at or after it', async () => {
        const lines: Line[] = (await list('limit=200').expect(200)).body.items;
        const third = [...lines].reverse()[2];
        const { body } = await list(`updatedSince=${encodeURIComponent(third.updatedAt)}`).expect(200);
        const want = lines.filter((line) => line.updatedAt >= third.updatedAt).map((line) => line.id);
        expect(ids(body)).toEqual(want);
        expect(ids(body)).toContain(third.id);
        expect(body.total).toBe(want.length);
        expect((await list('updatedSince=2000-01-01T00:00:00Z').expect(200)).body.total).toBe(made.length);
        expect((await list('updatedSince=2999-01-01T00:00:00Z').expect(200)).body).toEqual({ items: [], total: 0 });
      });

      it('combined with AND', async () => {
        const target = made[2];
        await list(`status=paid&partnerOrderId=${target.partnerOrderId}`)
          .expect(200)
          .expect(({ body }) => expect(body).toMatchObject({ total: 1, items: [{ id: target.id }] }));
        await list(`status=new&partnerOrderId=${target.partnerOrderId}`)
          .expect(200)
          .expect(({ body }) => expect(body).toEqual({ items: [], total: 0 }));
        const all = await list(`status=new&updatedSince=2000-01-01T00:00:00%2B03:00`).expect(200);
        expect(ids(all.body)).toEqual(expected((o) => o.status === 'new'));
        const none = await list(
          `status=paid&partnerOrderId=${target.partnerOrderId}&updatedSince=2999-01-01T00:00:00Z`,
        ).expect(200);
        expect(none.body).toEqual({ items: [], total: 0 });
      });

      it('pages the filtered orders: limit and offset over them, total unchanged', async () => {
        const want = expected((o) => o.status === 'paid');
        const pages = [];
        for (let offset = 0; offset < want.length + 1; offset += 2) {
          const { body } = await list(`status=paid&limit=2&offset=${offset}`).expect(200);
          expect(body.total).toBe(want.length);
          pages.push(...ids(body));
        }
        expect(pages).toEqual(want);
      });

      it('without filters, total is still every order of the brand', async () => {
        const { body } = await list('limit=2').expect(200);
        expect(body.total).toBe(made.length);
        expect(ids(body)).toEqual(expected(() => true).slice(0, 2));
      });
    });

    describe('updatedSince at its boundary and in every accepted form', () => {
      let at: number;
      let after: number;

      beforeAll(async () => {
        at = (await storefrontOrder()).id;
        after = (await storefrontOrder()).id;
        made.push(
          { id: at, partnerOrderId: null, status: 'paid' },
          { id: after, partnerOrderId: null, status: 'paid' },
        );
        // Fixed times, so the boundary is exact to the microsecond.
        await withClient(s.db.url, async (c) => {
          await c.query(`UPDATE orders SET updated_at = '3000-03-01T10:00:00Z' WHERE id = $1`, [at]);
          await c.query(`UPDATE orders SET updated_at = '3000-03-01T10:00:00.000001Z' WHERE id = $1`, [after]);
        });
      });

      it.each([
        ['3000-03-01T10:00:00Z', 'both'],
        ['3000-03-01T10:00:00.000Z', 'both'],
        ['3000-03-01T13:00:00+03:00', 'both'],
        ['3000-03-01T05:30:00-04:30', 'both'],
        ['3000-03-01t10:00:00z', 'both'],
        ['3000-03-01T10:00:00.0000001Z', 'both'],
        ['3000-03-01T10:00:00.000001Z', 'after'],
        ['3000-03-01T10:00:00.000000999Z', 'both'],
        ['3000-03-01T10:00:00.0000019Z', 'after'],
        [`3000-03-01T10:00:00.000000${'9'.repeat(300)}Z`, 'both'],
        ['3000-03-01T10:00:00.000002Z', 'none'],
        ['3000-03-02T00:00:00Z', 'none'],
      ])('updatedSince=%s keeps %s', async (since, keeps) => {
        const { body } = await list(`updatedSince=${encodeURIComponent(since)}`).expect(200);
        const want = { both: [after, at], after: [after], none: [] }[keeps];
        expect(ids(body)).toEqual(want);
        expect(body.total).toBe(want!.length);
      });

      it('updatedAt reads the stored time (UTC, milliseconds) in the list and the detail', async () => {
        const { body } = await list(`updatedSince=3000-03-01T00:00:00Z`).expect(200);
        expect(body.items.map((item: Line) => item.updatedAt)).toEqual([
          '3000-03-01T10:00:00.000Z',
          '3000-03-01T10:00:00.000Z',
        ]);
        expect((await detail(at)).updatedAt).toBe('3000-03-01T10:00:00.000Z');
      });
    });

    describe('updatedAt moves on every change of state, and only then', () => {
      /** Runs `change` and tells whether the order's updatedAt moved (list and detail agree). */
      async function moves(id: number, change: () => Promise<unknown>): Promise<boolean> {
        const before = (await detail(id)).updatedAt;
        await pause();
        await change();
        const now = await detail(id);
        const line = (await list(`limit=200`).expect(200)).body.items.find((item: Line) => item.id === id);
        expect(line.updatedAt).toBe(now.updatedAt);
        expect(now.updatedAt >= before).toBe(true);
        return now.updatedAt !== before;
      }

      it('a new order’s updatedAt is its creation; the order taken is its first state', async () => {
        const order = await platformOrder();
        const stored = await detail(order.id);
        expect(order.updatedAt).toBe(stored.updatedAt);
        const created = await withClient(
          s.db.url,
          async (c) =>
            (await c.query('SELECT created_at = updated_at AS same FROM orders WHERE id = $1', [order.id])).rows[0],
        );
        expect(created.same).toBe(true);
        const sf = await storefrontOrder();
        const row = await withClient(
          s.db.url,
          async (c) =>
            (await c.query('SELECT created_at = updated_at AS same FROM orders WHERE id = $1', [sf.id])).rows[0],
        );
        expect(row.same).toBe(true);
      });

      it('payment moves it; a repeated payment does not', async () => {
        const order = await platformOrder();
        expect(await moves(order.id, () => pay(order))).toBe(true);
        expect((await detail(order.id)).status).toBe('paid');
        expect(await moves(order.id, () => pay(order))).toBe(false);
      });

      it('cancellation moves it', async () => {
        const order = await platformOrder();
        expect(
          await moves(order.id, () =>
            request(s.t.http).post(`/orders/admin/${order.id}/cancel`).set(clerk.headers).send({}).expect(200),
          ),
        ).toBe(true);
        const since = (await detail(order.id)).updatedAt;
        const { body } = await list(`status=cancelled&updatedSince=${since}`).expect(200);
        expect(ids(body)).toContain(order.id);
      });

      it('carrier statuses: a new delivery status or order status moves it, the same status again does not', async () => {
        const uuid = `uuid-${next()}`;
        const { id } = await storefrontOrder(uuid);
        expect(await moves(id, () => carrierSays(uuid, 'registered'))).toBe(true);
        expect(await moves(id, () => carrierSays(uuid, 'registered'))).toBe(false);
        expect(await moves(id, () => carrierSays(uuid, 'in_transit'))).toBe(true);
        expect((await detail(id)).status).toBe('shipped');
        expect(await moves(id, () => carrierSays(uuid, 'delivered'))).toBe(true);
        expect((await detail(id)).status).toBe('completed');
      });

      it('a return received in full moves it (returned); a return asked for does not', async () => {
        const { id } = await storefrontOrder();
        const order = await request(s.t.http).get(`/orders/admin/${id}`).set(clerk.headers).expect(200);
        let ret: { id: number; items: Array<{ id: number }> } | undefined;
        expect(
          await moves(id, async () => {
            const created = await request(s.t.http)
              .post('/returns')
              .set(clerk.headers)
              .send({
                orderId: id,
                externalReturnId: `r-${next()}`,
                reasonCode: 'wrong_size',
                items: [{ orderItemId: order.body.items[0].id, quantity: 1 }],
              })
              .expect(201);
            ret = created.body.return;
          }),
        ).toBe(false);
        expect(
          await moves(id, () =>
            request(s.t.http)
              .post(`/returns/${ret!.id}/receive`)
              .set(clerk.headers)
              .send({ items: [{ returnItemId: ret!.items[0].id, quantity: 1, disposition: 'restock' }] })
              .expect(200),
          ),
        ).toBe(true);
        expect((await detail(id)).status).toBe('returned');
      });
    });

    it('the OpenAPI document describes the filters and updatedAt', async () => {
      const doc = (await request(s.t.http).get('/docs-json').expect(200)).body;
      const params = doc.paths['/orders/admin/all'].get.parameters as Array<{
        name: string;
        in: string;
        schema: object;
      }>;
      const query = Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));
      expect(query).toMatchObject({
        status: { enum: ['new', 'paid', 'shipped', 'completed', 'returned', 'cancelled'] },
        partnerOrderId: { type: 'string' },
        updatedSince: { type: 'string', format: 'date-time' },
      });
      for (const name of ['OrderSummary', 'OrderResponse']) {
        expect(doc.components.schemas[name].properties.updatedAt).toMatchObject({
          type: 'string',
          format: 'date-time',
        });
        expect(doc.components.schemas[name].required).toContain('updatedAt');
      }
    });

    describe('bad values get 400', () => {
      it.each([
        ['status=unknown', 'status must be one of new, paid, shipped, completed, returned, cancelled'],
        ['status=', 'status must be one of new, paid, shipped, completed, returned, cancelled'],
        ['status=PAID', 'status must be one of new, paid, shipped, completed, returned, cancelled'],
        ['status=paid&status=new', 'status must be one of new, paid, shipped, completed, returned, cancelled'],
        ['partnerOrderId=', 'partnerOrderId must be one text of 1 to 100 characters'],
        [`partnerOrderId=${'x'.repeat(101)}`, 'partnerOrderId must be one text of 1 to 100 characters'],
        ['partnerOrderId=a&partnerOrderId=b', 'partnerOrderId must be one text of 1 to 100 characters'],
      ])('%s → %s', async (query, error) => {
        expect((await list(query).expect(400)).body.error).toBe(error);
      });

      it.each([
        'yesterday',
        '',
        '1700000000',
        '1700000000000',
        '2026-13-01',
        '2026-02-30',
        '2025-02-29',
        '2026-00-10',
        '2026-11-26T12:00:00',
        '2026-11-26T12:60:00Z',
        '2026-11-26T12:00:61Z',
        '2026-11-26T24:00:00.0000001Z',
        '2026-11-26 12:00:00Z',
        '2026-11-26',
        '3000-03-01T10:00Z',
        '3000-03-01T13:00:00+0300',
        '3000-03-01T09:59:59,9999999Z',
        '30000301T100000Z',
        '3000-060T10:00:00Z',
        '3000-02-28T24:00Z',
        '3000-W09-6T10:00:00Z',
        '3000-03',
        '2026-02-30T00:00:00Z',
        '2026-11-26T23:59:60Z',
        '0000-01-01T00:00:00Z',
        '2026-11-26T12:00:00+15:00',
        '2026-11-26T12:00:00+03:60',
        '2026-11-26T12:00:00.Z',
        '2026-11-26T24:00:01Z',
        '2026-11-26T12:00',
        '20261126T12:00Z',
        '202611',
        '2026-W54-1',
        '2026-367',
        '+2026-11-26',
        '0000-01-01',
        ' 2026-11-26',
        'Thu, 26 Nov 2026 12:00:00 GMT',
      ])('updatedSince=%j → 400', async (since) => {
        const response = await list(`updatedSince=${encodeURIComponent(since)}`).expect(400);
        expect(response.body.error).toBe(
          'updatedSince must be an RFC 3339 date-time with its offset (2026-12-01T09:30:00Z, 2026-12-01T12:30:00.25+03:00)',
        );
      });

      it('a repeated updatedSince → 400; every bad parameter is listed', async () => {
        await list('updatedSince=2026-01-01T00:00:00Z&updatedSince=2026-01-02T00:00:00Z').expect(400);
        const response = await list('status=x&updatedSince=x&partnerOrderId=&limit=0').expect(400);
        expect(response.body.details).toHaveLength(4);
      });

      it('the leap day of a leap year and the last instant of a year are accepted', async () => {
        await list('updatedSince=2028-02-29T00:00:00Z').expect(200);
        await list('updatedSince=2026-12-31T23:59:59.999999%2B14:00').expect(200);
        await list('updatedSince=0001-01-01T00:00:00-12:00').expect(200);
        await list('updatedSince=9999-12-31T23:59:59.999999-14:00').expect(200);
      });
    });

    describe('the key checked by the list statement, filtered', () => {
      it('a known key with orders.read reads the filtered list through its statement', async () => {
        const key = await issueKey(s.fx, brand, { permissions: ['orders.read'] });
        await list('limit=1', key).expect(200); // now known to the instance: the next checks ride in the statement
        const target = made[0];
        const { body } = await list(`status=paid&partnerOrderId=${target.partnerOrderId}`, key).expect(200);
        expect(body).toMatchObject({ total: 1, items: [{ id: target.id }] });
        // Two at once reach both pipelined read connections.
        const probe = () =>
          s.t.app
            .get(PreparedStatements)
            .read<{ name: string }>(
              { name: 'order_list_filters_probe', text: 'SELECT name FROM pg_prepared_statements' },
              [],
            );
        const prepared = (await Promise.all([probe(), probe()])).flat();
        expect(prepared.map((row) => row.name)).toContain('list_orders_by_status_partner_order_id_with_key');
      });

      it('a revoked key known to the instance gets 401 on the filtered list, before any 400', async () => {
        const key = await issueKey(s.fx, brand, { permissions: ['orders.read'] });
        await list('status=paid', key).expect(200);
        await request(s.t.http)
          .post(`/admin/brands/${brand}/integration-keys/${key.id}/revoke`)
          .set(bearer(s.fx.admin))
          .expect(200);
        expect((await list('status=paid', key).expect(401)).body.error).toBe('Unauthorized');
        await list('status=nope', key).expect(401);
        const writer = await issueKey(s.fx, brand, { permissions: ['orders.create_partner'] });
        await list('status=paid', writer).expect(403);
      });

      it('another brand’s key sees only its own brand’s orders under the same filters', async () => {
        const other = await s.fx.brand();
        const key = await issueKey(s.fx, other, { fullAccess: true });
        await list('limit=1', key).expect(200);
        expect((await list('status=paid', key).expect(200)).body).toEqual({ items: [], total: 0 });
      });
    });

    // The service plans every statement once, generically (plan_cache_mode): checked on an analysed brand of many orders.
    describe('the filtered statements under generic plans', () => {
      let big: number;

      beforeAll(async () => {
        big = await s.fx.brand();
        await withClient(s.db.url, async (c) => {
          await c.query(
            `INSERT INTO orders (brand_id, order_number, hash, source, partner_order_id, status, payment_status, ordered_at,
                               items_total_kopeks, total_kopeks, recipient_full_name, recipient_phone, updated_at)
           SELECT $1, 'PLAN-' || n, md5('plan' || n), 'storefront', 'PLAN-' || n, 'paid', 'paid', now(), 100, 100, 'X', '+7',
                  now() - n * interval '1 minute'
             FROM generate_series(1, 20000) AS n`,
            [big],
          );
          await c.query('ANALYZE orders');
        });
      }, 60_000);

      const plan = (statement: Prepared, args: string) =>
        withClient(s.db.url, async (c) => {
          await c.query('SET plan_cache_mode = force_generic_plan');
          await c.query(`PREPARE probe AS ${statement.text}`);
          // EXECUTE takes no bind parameters: the values are the test's own constants.
          const rows = await c.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE probe(${args})`);
          return rows.rows.map((row) => row['QUERY PLAN']).join('\n');
        });

      it('updatedSince counts and pages by the brand’s updated_at index, partnerOrderId by its unique index', async () => {
        const since = await plan(
          filteredList({ updatedSince: '2026-01-01T00:00:00Z' })!.plain,
          `${big}, 50, 0, '2026-01-01T00:00:00Z'`,
        );
        expect(since).toMatch(/ix_orders_brand_updated/);
        expect(since).not.toMatch(/Seq Scan on orders/);
        const partner = await plan(filteredList({ partnerOrderId: 'PLAN-7' })!.plain, `${big}, 50, 0, 'PLAN-7'`);
        expect(partner).toMatch(/uq_orders_partner_order/);
        expect(partner).not.toMatch(/Seq Scan on orders/);
        const withKey = filteredList({ updatedSince: '2026-01-01T00:00:00Z' })!.withKey;
        expect(withKey.text).toContain('updated_at >= $6::timestamptz');
      });
    });
  });
}
