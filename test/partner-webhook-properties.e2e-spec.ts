import fc from 'fast-check';
import request from 'supertest';
import { createProduct, Fixtures, issueKey, type IssuedKey } from './support/fixtures';
import { countRows } from './support/stock-probe';
import { createTestDatabase, withClient, type TestDatabase } from './support/test-database';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Arbitrary and malformed bodies thrown at the webhook. Whatever arrives, the answer is 201/200
 * with a consistent order and ledger, or 400/422 with nothing written; never a 500.
 */
describe('storefront webhook under arbitrary input', () => {
  let db: TestDatabase;
  let t: TestApp;
  let storefront: IssuedKey;

  beforeAll(async () => {
    db = await createTestDatabase();
    t = await startTestApp({ databaseUrl: db.url });
    const fx = await Fixtures.create(t.http);
    const brand = await fx.brand();
    storefront = await issueKey(fx, brand, { permissions: ['orders.create_partner'] });
    await createProduct(fx, brand, {
      article: 'A-1',
      storefrontArticle: 'SF-A',
      priceKopeks: 1000,
      sizes: [
        { name: 'S', stock: 5 },
        { name: 'M', priceKopeks: 1200 },
      ],
    });
    await createProduct(fx, brand, {
      article: 'B-1',
      storefrontArticle: 'SF-B',
      priceKopeks: 700,
      sizes: [{ name: 'One', stock: 1000 }],
    });
    await createProduct(fx, brand, { article: 'C-1', storefrontArticle: 'SF-C', priceKopeks: 300 });
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  const junk = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.integer(),
    fc.double(),
    fc.string(),
    fc.boolean(),
    fc.array(fc.integer(), { maxLength: 2 }),
    fc.object({ maxDepth: 1 }),
  );
  const item = fc.record(
    {
      article: fc.oneof(fc.constantFrom('SF-A', 'SF-B', 'SF-C', 'A-1', 'NOPE', ''), junk),
      size: fc.oneof(fc.constantFrom('S', 's', 'M', ' m ', 'One', 'ONE', 'XL', ''), junk),
      quantity: fc.oneof(fc.integer({ min: -2, max: 4 }), fc.constantFrom(1.5, '2', 0, 1e9), junk),
      priceKopeks: fc.oneof(fc.constant(undefined), fc.integer({ min: -5, max: 500000 }), junk),
    },
    { requiredKeys: [] },
  );
  const body = fc.record(
    {
      partnerOrderId: fc.oneof(fc.stringMatching(/^P-[0-9]{1,3}$/), fc.constant('   '), junk),
      recipient: fc.oneof(
        fc.record(
          {
            fullName: fc.oneof(fc.constantFrom('Ivanov Ivan Ivanovich', 'Solo', '  '), junk),
            phone: fc.oneof(fc.constantFrom('+7 912 000-00-00', '8 (900) 1', 'call me'), junk),
            email: fc.oneof(fc.constant(undefined), fc.constantFrom('a@b.example', 'nope'), junk),
          },
          { requiredKeys: [] },
        ),
        junk,
      ),
      items: fc.oneof(fc.array(item, { maxLength: 4 }), junk),
      delivery: fc.oneof(
        fc.constant(undefined),
        fc.record(
          {
            city: fc.oneof(fc.string(), junk),
            deliveryCostKopeks: fc.oneof(fc.integer({ min: -10, max: 100000 }), junk),
          },
          { requiredKeys: [] },
        ),
        junk,
      ),
      orderDate: fc.oneof(
        fc.constant(undefined),
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        junk,
      ),
      comment: fc.oneof(fc.constant(undefined), fc.string(), junk),
    },
    { requiredKeys: [] },
  );

  // Well-formed orders (some matching, some not, some repeating a number) mixed with anything at all.
  const wellFormed = fc.record({
    partnerOrderId: fc.stringMatching(/^W-[0-9]{1,2}$/),
    recipient: fc.record({
      fullName: fc.constantFrom('Ivanov Ivan', 'Petrova Anna Sergeevna'),
      phone: fc.constant('+79120000000'),
    }),
    items: fc.array(
      fc.record({
        article: fc.constantFrom('SF-A', 'SF-B', 'SF-B', 'SF-C', 'NOPE'),
        size: fc.constantFrom('s', 'M', 'one', 'One'),
        quantity: fc.integer({ min: 1, max: 3 }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  });
  const anyBody = fc.oneof({ arbitrary: wellFormed, weight: 2 }, { arbitrary: body, weight: 3 });

  const snapshot = async () => ({
    orders: await countRows(db.url, 'orders'),
    items: await countRows(db.url, 'order_items'),
    movements: await countRows(db.url, 'stock_movements'),
  });

  const ledgerConsistent = async () =>
    withClient(db.url, async (c) => {
      const rows = await c.query(
        `SELECT s.id FROM product_sizes s LEFT JOIN stock_movements m ON m.size_id = s.id
          GROUP BY s.id, s.stock HAVING s.stock <> COALESCE(sum(m.delta), 0)`,
      );
      const totals = await c.query(
        `SELECT o.id FROM orders o JOIN order_items i ON i.order_id = o.id
          GROUP BY o.id HAVING o.items_total_kopeks <> sum(i.line_total_kopeks) OR o.total_kopeks <> o.items_total_kopeks + o.delivery_cost_kopeks`,
      );
      return rows.rowCount === 0 && totals.rowCount === 0;
    });

  it('answers 201/200 with consistent data or 400/422 with nothing written, never 500', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(anyBody, async (payload) => {
        const before = await snapshot();
        const response = await request(t.http)
          .post('/orders/integrations/partner/webhook')
          .set(storefront.headers)
          .send(payload);
        const after = await snapshot();
        expect([200, 201, 400, 422]).toContain(response.status);
        seen.add(response.status);
        expect(typeof response.body.error === 'string' || response.body.ok === true).toBe(true);
        if (response.status === 201) {
          const lines = (payload.items as unknown[] | undefined)?.length ?? 0;
          expect(after).toEqual({
            orders: before.orders + 1,
            items: before.items + lines,
            movements: before.movements + lines,
          });
        } else {
          expect(after).toEqual(before);
        }
        if (response.status === 400) expect(response.body.details.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
    expect(await ledgerConsistent()).toBe(true);
    // The run reached every outcome, so the invariant was checked on each.
    expect([...seen].sort()).toEqual([200, 201, 400, 422]);
  });

  it('bodies that are not objects are refused with 400', async () => {
    for (const raw of ['[]', '[1,2]', '"text"', '42', 'null', 'true', '{"items": [1, "x", null]}']) {
      const response = await request(t.http)
        .post('/orders/integrations/partner/webhook')
        .set(storefront.headers)
        .set('Content-Type', 'application/json')
        .send(raw);
      expect(response.status).toBe(400);
      expect(typeof response.body.error).toBe('string');
    }
  });
});
