import fc from 'fast-check';
import request from 'supertest';
import { createProduct, issueKey, type IssuedKey } from '../support/fixtures';
import { anyBody, seedPartnerCatalog, wellFormedBody } from '../support/partner-bodies';
import { type SharedSuite, type Suite } from '../support/suite';
import { withClient } from '../support/test-database';

interface Preflight {
  ok: boolean;
  duplicate: boolean;
  lines: Array<{ matched: boolean; sizeId: number | null; priceKopeks: number | null; lineTotalKopeks: number | null }>;
  itemsTotalKopeks: number;
  deliveryCostKopeks: number;
  totalKopeks: number;
  problems: string[];
}

/**
 * The preflight against the webhook itself, body by body: asked first, then the webhook sent the
 * same body, the preflight's `ok` holds exactly when the webhook answers 201 or 200, its problems
 * are the 422's details, its totals and prices the created order's, and a 400 is the same 400.
 */
export function describePreflightProperties(shared: SharedSuite): void {
  describe('storefront preflight against the webhook, for generated bodies', () => {
    let suite: Suite;
    let storefront: IssuedKey;
    const seen = { ok: new Set<number>(), notOk: new Set<number>() };

    beforeAll(async () => {
      // Hundreds of requests of one key in a few seconds: the per-key limit is not under test here.
      suite = shared.suite;
      const brand = await suite.fx.brand();
      storefront = await issueKey(suite.fx, brand, { permissions: ['orders.create_partner'] });
      await seedPartnerCatalog(suite.fx, brand);
      // Another brand's product: never matched by this brand's key.
      await createProduct(suite.fx, await suite.fx.brand(), {
        article: 'A-1',
        storefrontArticle: 'NOPE',
        priceKopeks: 5,
        sizes: [{ name: 'S', stock: 1 }],
      });
    });

    const post = (path: string, body: unknown) =>
      request(suite.t.http)
        .post(`/orders/integrations/partner/${path}`)
        .set(storefront.headers)
        .send(body as object);
    const withoutRequestId = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });
    const orderAsStored = (orderId: number) =>
      withClient(suite.db.url, async (c) => ({
        order: (
          await c.query(
            'SELECT items_total_kopeks::int AS items, delivery_cost_kopeks::int AS delivery, total_kopeks::int AS total FROM orders WHERE id = $1',
            [orderId],
          )
        ).rows[0] as { items: number; delivery: number; total: number },
        lines: (
          await c.query(
            `SELECT size_id AS "sizeId", price_kopeks::int AS "priceKopeks", line_total_kopeks::int AS "lineTotalKopeks"
             FROM order_items WHERE order_id = $1 ORDER BY line`,
            [orderId],
          )
        ).rows as Array<Record<string, number>>,
      }));

    /** Compares the preflight's answer with the webhook's for one body; the webhook's status. */
    const agrees = async (body: unknown): Promise<number> => {
      const asked = await post('preflight', body);
      const answered = await post('webhook', body);
      if (asked.status === 400) {
        expect(answered.status).toBe(400);
        expect(withoutRequestId(asked.body)).toEqual(withoutRequestId(answered.body));
        return answered.status;
      }
      expect(asked.status).toBe(200);
      const preflight = asked.body as Preflight;
      (preflight.ok ? seen.ok : seen.notOk).add(answered.status);
      expect({ ok: preflight.ok, status: answered.status }).toEqual({
        ok: [200, 201].includes(answered.status),
        status: answered.status,
      });
      expect(preflight.duplicate).toBe(answered.status === 200);
      expect(preflight.problems).toEqual(preflight.lines.flatMap((l) => (l.matched ? [] : [expect.any(String)])));
      if (answered.status === 422) {
        expect(answered.body.details).toEqual(preflight.problems);
        expect(answered.body.error).toBe(preflight.problems[0]);
      }
      if (answered.status === 201) {
        expect(answered.body.order.totalKopeks).toBe(preflight.totalKopeks);
        const stored = await orderAsStored(answered.body.order.id as number);
        expect(stored.order).toEqual({
          items: preflight.itemsTotalKopeks,
          delivery: preflight.deliveryCostKopeks,
          total: preflight.totalKopeks,
        });
        expect(stored.lines).toEqual(
          preflight.lines.map(({ sizeId, priceKopeks, lineTotalKopeks }) => ({ sizeId, priceKopeks, lineTotalKopeks })),
        );
      }
      return answered.status;
    };

    it('ok ⇔ 201/200, problems = the 422’s details, totals = the order’s, for well-formed bodies', async () => {
      await fc.assert(
        fc.asyncProperty(wellFormedBody, async (body) => {
          // Sent again, a created order is a repeat: the 200 is compared as surely as the 201.
          if ((await agrees(body)) === 201) await agrees(body);
        }),
        { numRuns: 150 },
      );
      // Every outcome was reached, so each was compared.
      expect([...seen.ok].sort()).toEqual([200, 201]);
      expect([...seen.notOk]).toEqual([422]);
    });

    it('the same for bodies of any shape: a 400 is the webhook’s 400', async () => {
      await fc.assert(
        fc.asyncProperty(anyBody, async (body) => void (await agrees(body))),
        { numRuns: 150 },
      );
    });
  });
}
