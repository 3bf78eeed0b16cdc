import fc from 'fast-check';
import request from 'supertest';
import { canMove } from '../../src/orders/order-transitions';
import type { OrderStatus } from '../../src/orders/order.entity';
import type { ReturnStatus } from '../../src/returns/return-states';
import { canReturnMove } from '../../src/returns/return-transitions';
import { createProduct, issueKey, type IssuedKey } from '../support/fixtures';
import { CARRIER_SECRET, postSigned } from '../support/signed';
import { type SharedSuite, type Suite } from '../support/suite';
import { withClient } from '../support/test-database';

type Action =
  | { kind: 'return'; line: number; quantity: number }
  | { kind: 'receive'; ret: number; line: number; quantity: number; restock: boolean }
  | { kind: 'move'; ret: number; action: 'approve' | 'decline' | 'cancel' | 'close' | 'refund' }
  | { kind: 'cancelOrder' }
  | { kind: 'carrier'; status: 'in_transit' | 'delivered' | 'not_delivered' | 'returned' };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('return' as const), line: fc.nat(1), quantity: fc.integer({ min: 1, max: 3 }) }),
  fc.record({
    kind: fc.constant('receive' as const),
    ret: fc.nat(3),
    line: fc.nat(1),
    quantity: fc.integer({ min: 1, max: 3 }),
    restock: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('move' as const),
    ret: fc.nat(3),
    action: fc.constantFrom(
      'approve' as const,
      'decline' as const,
      'cancel' as const,
      'close' as const,
      'refund' as const,
    ),
  }),
  fc.constant({ kind: 'cancelOrder' as const }),
  fc.record({
    kind: fc.constant('carrier' as const),
    status: fc.constantFrom('in_transit' as const, 'delivered' as const, 'not_delivered' as const, 'returned' as const),
  }),
);

/**
 * Random sequences of returns, receipts, return moves, cancellations and carrier events on one
 * storefront order (issue 12). After every step: each size's stock is the sum of its ledger, no
 * line has more units in live returns than were ordered nor more received than returned, the
 * order's returned units are what its returns received, and every status moved only along its
 * table. No step answers 5xx.
 */
export function describeReturnsProperties(shared: SharedSuite): void {
  describe('returns, receipts, cancellations and carrier events in any order', () => {
    let suite: Suite;
    let storefront: IssuedKey;
    let clerk: IssuedKey;
    let run = 0;
    let eventSeq = 0;

    beforeAll(async () => {
      suite = shared.suite;
      const brand = await suite.fx.brand();
      storefront = await issueKey(suite.fx, brand, { permissions: ['orders.create_partner'] });
      clerk = await issueKey(suite.fx, brand, {
        permissions: ['orders.read', 'orders.write', 'returns.read', 'returns.write'],
      });
      await createProduct(suite.fx, brand, {
        article: 'JKT',
        storefrontArticle: 'SF-JKT',
        priceKopeks: 500000,
        sizes: [
          { name: 'S', stock: 3 },
          { name: 'M', stock: 0 },
        ],
      });
    });

    async function invariants(orderId: number) {
      return withClient(suite.db.url, async (c) => {
        const offLedger = await c.query(
          `SELECT s.id FROM product_sizes s
          WHERE s.stock <> (SELECT COALESCE(sum(m.delta), 0) FROM stock_movements m WHERE m.size_id = s.id)`,
        );
        const lines = await c.query(
          `SELECT i.id, i.quantity, i.returned_quantity,
                (SELECT COALESCE(sum(ri.quantity), 0)::int FROM return_items ri JOIN returns r ON r.id = ri.return_id
                  WHERE ri.order_item_id = i.id AND r.status NOT IN ('declined', 'canceled')) AS held,
                (SELECT COALESCE(sum(ri.received_quantity), 0)::int FROM return_items ri WHERE ri.order_item_id = i.id) AS received
           FROM order_items i WHERE i.order_id = $1`,
          [orderId],
        );
        const statuses = await c.query(
          `SELECT 'order' AS kind, id, status FROM orders WHERE id = $1
         UNION ALL SELECT 'return', id, status FROM returns WHERE order_id = $1`,
          [orderId],
        );
        return {
          offLedger: offLedger.rows.map((r) => r.id as number),
          lines: lines.rows as Array<{
            id: number;
            quantity: number;
            returned_quantity: number;
            held: number;
            received: number;
          }>,
          statuses: statuses.rows as Array<{ kind: 'order' | 'return'; id: number; status: string }>,
        };
      });
    }

    it('keeps every invariant after every step', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 14 }), async (actions) => {
          const uuid = `prop-${process.pid}-${++run}`;
          const created = await request(suite.t.http)
            .post('/orders/integrations/partner/webhook')
            .set(storefront.headers)
            .send({
              partnerOrderId: uuid,
              carrierOrderUuid: uuid,
              recipient: { fullName: 'Lebedev Pavel', phone: '+79007770000' },
              items: [
                { article: 'SF-JKT', size: 'S', quantity: 2 },
                { article: 'SF-JKT', size: 'M', quantity: 3 },
              ],
            })
            .expect(201);
          const orderId = created.body.order.id as number;
          const order = await request(suite.t.http).get(`/orders/admin/${orderId}`).set(clerk.headers).expect(200);
          const lineIds = (order.body.items as Array<{ id: number }>).map((i) => i.id);
          const returns: Array<{ id: number; items: Array<{ id: number }> }> = [];
          const seen = new Map<string, string>();
          let step = 0;

          for (const a of actions) {
            step++;
            let answer: request.Response;
            if (a.kind === 'return') {
              answer = await request(suite.t.http)
                .post('/returns')
                .set(clerk.headers)
                .send({
                  orderId,
                  externalReturnId: `${uuid}-${step}`,
                  items: [{ orderItemId: lineIds[a.line], quantity: a.quantity }],
                  reasonCode: 'other',
                });
              if (answer.status === 201) returns.push(answer.body.return);
            } else if (a.kind === 'receive' || a.kind === 'move') {
              const ret = returns[a.ret % Math.max(returns.length, 1)];
              if (!ret) continue;
              const body =
                a.kind === 'receive'
                  ? {
                      items: [
                        {
                          returnItemId: ret.items[a.line % ret.items.length].id,
                          quantity: a.quantity,
                          disposition: a.restock ? 'restock' : 'damaged',
                        },
                      ],
                    }
                  : {};
              answer = await request(suite.t.http)
                .post(`/returns/${ret.id}/${a.kind === 'receive' ? 'receive' : a.action}`)
                .set(clerk.headers)
                .send(body);
            } else if (a.kind === 'cancelOrder') {
              answer = await request(suite.t.http).post(`/orders/admin/${orderId}/cancel`).set(clerk.headers).send({});
            } else {
              answer = await postSigned(suite.t.http, '/carrier/webhook', CARRIER_SECRET, {
                eventId: `${uuid}-e${++eventSeq}`,
                carrierOrderUuid: uuid,
                status: a.status,
                occurredAt: new Date(Date.UTC(2026, 10, 22, 0, 0, step)).toISOString(),
              });
              // A carrier return opened by the event joins the ones the sequence can act on.
              const list = await request(suite.t.http).get(`/returns?orderId=${orderId}`).set(clerk.headers);
              for (const r of list.body.items) if (!returns.some((x) => x.id === r.id)) returns.push(r);
            }
            expect(answer.status).toBeLessThan(500);

            const now = await invariants(orderId);
            expect(now.offLedger).toEqual([]);
            for (const line of now.lines) {
              expect(line.held).toBeLessThanOrEqual(line.quantity);
              expect(line.returned_quantity).toBe(line.received);
              expect(line.received).toBeLessThanOrEqual(line.quantity);
            }
            for (const { kind, id, status } of now.statuses) {
              const before = seen.get(`${kind}:${id}`);
              if (before !== undefined && before !== status) {
                const allowed =
                  kind === 'order'
                    ? canMove(before as OrderStatus, status as OrderStatus)
                    : canReturnMove(before as ReturnStatus, status as ReturnStatus);
                expect({ kind, id, from: before, to: status, allowed }).toEqual({
                  kind,
                  id,
                  from: before,
                  to: status,
                  allowed: true,
                });
              }
              seen.set(`${kind}:${id}`, status);
            }
          }
        }),
        { numRuns: 25 },
      );
    });
  });
}
