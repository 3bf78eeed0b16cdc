import fc from 'fast-check';
import request from 'supertest';
import { issueKey, type IssuedKey } from '../support/fixtures';
import { anyBody, seedPartnerCatalog } from '../support/partner-bodies';
import { countRows } from '../support/stock-probe';
import type { SharedSuite } from '../support/suite';
import { withClient, type TestDatabase } from '../support/test-database';
import type { TestApp } from '../support/test-app';

/**
 * Arbitrary and malformed bodies thrown at the webhook. Whatever arrives, the answer is 201/200
 * with a consistent order and ledger, or 400/422 with nothing written; never a 500.
 */
export function describeWebhookProperties(shared: SharedSuite): void {
  describe('storefront webhook under arbitrary input', () => {
    let db: TestDatabase;
    let t: TestApp;
    let storefront: IssuedKey;
    let brand: number;

    beforeAll(async () => {
      ({ db, t } = shared.suite);
      const { fx } = shared.suite;
      brand = await fx.brand();
      storefront = await issueKey(fx, brand, { permissions: ['orders.create_partner'] });
      await seedPartnerCatalog(fx, brand);
    });

    const snapshot = async () => ({
      orders: await countRows(db.url, 'orders'),
      items: await countRows(db.url, 'order_items'),
      movements: await countRows(db.url, 'stock_movements'),
    });

    // This block's brand: the other blocks on the shared app keep their own books.
    const ledgerConsistent = async () =>
      withClient(db.url, async (c) => {
        const rows = await c.query(
          `SELECT s.id FROM product_sizes s LEFT JOIN stock_movements m ON m.size_id = s.id
          WHERE s.brand_id = $1 GROUP BY s.id, s.stock HAVING s.stock <> COALESCE(sum(m.delta), 0)`,
          [brand],
        );
        const totals = await c.query(
          `SELECT o.id FROM orders o JOIN order_items i ON i.order_id = o.id
          WHERE o.brand_id = $1 GROUP BY o.id HAVING o.items_total_kopeks <> sum(i.line_total_kopeks) OR o.total_kopeks <> o.items_total_kopeks + o.delivery_cost_kopeks`,
          [brand],
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
            // Sent again, it is a repeat: 200 with the first order and nothing written (so every run reaches a 200,
            // not only one whose generated ids happen to collide).
            const repeat = await request(t.http)
              .post('/orders/integrations/partner/webhook')
              .set(storefront.headers)
              .send(payload);
            expect(repeat.status).toBe(200);
            expect(repeat.body.order.id).toBe(response.body.order.id);
            expect(await snapshot()).toEqual(after);
            seen.add(200);
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
}
