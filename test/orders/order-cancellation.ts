import request from 'supertest';
import { OutboxWorker } from '../../src/notifications/outbox-worker';
import type { CarrierStub } from '../support/carrier-stub';
import { createProduct, issueKey, journal, type IssuedKey } from '../support/fixtures';
import { CARRIER_SECRET, PAYMENT_SECRET, postSigned } from '../support/signed';
import { countRows, stockAndLedger } from '../support/stock-probe';
import { type SharedSuite, type Suite } from '../support/suite';
import { withClient } from '../support/test-database';

let seq = 0;
const eventId = () => `cxl-${process.pid}-${++seq}`;

/**
 * Cancellation (contract §9) and the returns the carrier opens: the outbox worker is driven by
 * hand here (OUTBOX_WORKER=false), so a shipment job can be queued and run at a chosen moment.
 */
/** `carrier` is the stub the shared app's CARRIER_API_URL names (test/orders.e2e-spec.ts). */
export function describeOrderCancellation(shared: SharedSuite, carrier: CarrierStub): void {
  describe('order cancellation and carrier returns', () => {
    let suite: Suite;
    let clerk: IssuedKey;
    let storefront: IssuedKey;
    let sizeId: number;

    const http = () => suite.t.http;
    const dbUrl = () => suite.db.url;
    const worker = () => suite.t.app.get(OutboxWorker);
    const order = async (id: number) =>
      (await request(http()).get(`/orders/admin/${id}`).set(clerk.headers).expect(200)).body;
    const cancel = (id: number, body: object = {}) =>
      request(http()).post(`/orders/admin/${id}/cancel`).set(clerk.headers).send(body);
    const pay = (orderNumber: string, amountKopeks: number) =>
      postSigned(http(), '/payments/webhook', PAYMENT_SECRET, {
        eventId: eventId(),
        orderNumber,
        amountKopeks,
        status: 'succeeded',
        paidAt: new Date().toISOString(),
      });
    const carrierEvent = (body: Record<string, unknown>) =>
      postSigned(http(), '/carrier/webhook', CARRIER_SECRET, {
        eventId: eventId(),
        occurredAt: new Date().toISOString(),
        ...body,
      });

    async function platformOrder(quantity = 2) {
      const response = await request(http())
        .post('/orders/admin')
        .set(clerk.headers)
        .send({ recipient: { fullName: 'Orlova Anna', phone: '+79005554433' }, items: [{ sizeId, quantity }] })
        .expect(201);
      return response.body.order as { id: number; orderNumber: string; totalKopeks: number };
    }

    beforeAll(async () => {
      suite = shared.suite;
      const brand = await suite.fx.brand();
      clerk = await issueKey(suite.fx, brand, {
        permissions: ['orders.read', 'orders.write', 'returns.read', 'returns.write', 'stock.read'],
      });
      storefront = await issueKey(suite.fx, brand, { permissions: ['orders.create_partner'] });
      const product = await createProduct(suite.fx, brand, {
        article: 'CAP',
        storefrontArticle: 'SF-CAP',
        priceKopeks: 50000,
        sizes: [{ name: 'One', stock: 50 }],
      });
      sizeId = product.sizes[0].id;
    });

    it('cancels a new order: nothing to give back to stock, the full order in the answer', async () => {
      const created = await platformOrder();
      const before = await stockAndLedger(dbUrl(), sizeId);
      const response = await cancel(created.id, { reason: 'customer called' }).expect(200);
      expect(response.body).toEqual({ ...(await order(created.id)), status: 'cancelled' });
      expect(await stockAndLedger(dbUrl(), sizeId)).toEqual(before);
      const again = await cancel(created.id).expect(409);
      expect(again.body.error).toBe('An order that is cancelled cannot become cancelled');
    });

    it('cancels a paid order before registration: stock comes back, the queued shipment does nothing', async () => {
      const created = await platformOrder(3);
      const start = await stockAndLedger(dbUrl(), sizeId);
      await pay(created.orderNumber, created.totalKopeks).expect(200);
      expect(await stockAndLedger(dbUrl(), sizeId)).toEqual({ stock: start.stock - 3, ledger: start.ledger - 3 });
      await cancel(created.id).expect(200);
      expect(await stockAndLedger(dbUrl(), sizeId)).toEqual(start);
      const movements = await request(http()).get(`/inventory/movements?sizeId=${sizeId}&limit=1`).set(clerk.headers);
      expect(movements.body.items[0]).toMatchObject({ reason: 'cancellation', delta: 3, orderId: created.id });

      const calls = carrier.shipments.size;
      await worker().runOnce();
      expect(carrier.shipments.size).toBe(calls);
      const after = await order(created.id);
      expect(after).toMatchObject({ status: 'cancelled', carrierOrderUuid: null });
    });

    it('takes no payment for a cancelled order: 200, journaled, nothing moves', async () => {
      const created = await platformOrder(1);
      await cancel(created.id).expect(200);
      const before = await stockAndLedger(dbUrl(), sizeId);
      await pay(created.orderNumber, created.totalKopeks).expect(200, { ok: true });
      expect(await order(created.id)).toMatchObject({ status: 'cancelled', paymentStatus: 'pending' });
      expect(await stockAndLedger(dbUrl(), sizeId)).toEqual(before);
      const entries = await journal(suite.fx);
      expect(entries.find((e) => e.type === 'payment_for_cancelled_order')).toMatchObject({
        details: { orderNumber: created.orderNumber },
      });
    });

    it('refuses to cancel an order the carrier has (409), and a storefront order can be cancelled like a paid one', async () => {
      const registered = await platformOrder(1);
      await pay(registered.orderNumber, registered.totalKopeks).expect(200);
      await worker().runOnce();
      expect((await order(registered.id)).carrierOrderUuid).toEqual(expect.any(String));
      const refused = await cancel(registered.id).expect(409);
      expect(refused.body.error).toBe('An order registered with the carrier (or being registered) cannot be cancelled');

      const before = await stockAndLedger(dbUrl(), sizeId);
      const sf = await request(http())
        .post('/orders/integrations/partner/webhook')
        .set(storefront.headers)
        .send({
          partnerOrderId: `CX-${seq}`,
          recipient: { fullName: 'Orlov Oleg', phone: '+79001110000' },
          items: [{ article: 'SF-CAP', size: 'one', quantity: 2 }],
        })
        .expect(201);
      await cancel(sf.body.order.id).expect(200);
      expect(await stockAndLedger(dbUrl(), sizeId)).toEqual({ stock: before.stock, ledger: before.ledger });
    });

    it('settles a cancellation racing a payment either way with stock whole and no shipment', async () => {
      for (let round = 0; round < 5; round++) {
        const created = await platformOrder(2);
        const start = await stockAndLedger(dbUrl(), sizeId);
        const [cancelled, paid] = await Promise.all([
          cancel(created.id),
          pay(created.orderNumber, created.totalKopeks),
        ]);
        expect(cancelled.status).toBe(200);
        expect(paid.status).toBe(200);
        expect(await order(created.id)).toMatchObject({ status: 'cancelled', carrierOrderUuid: null });
        expect(await stockAndLedger(dbUrl(), sizeId)).toEqual(start);
      }
      const calls = carrier.shipments.size;
      await worker().runOnce();
      expect(carrier.shipments.size).toBe(calls);
    });

    it('opens one carrier return for goods coming back; they reach stock only when received', async () => {
      const created = await platformOrder(2);
      await pay(created.orderNumber, created.totalKopeks).expect(200);
      await worker().runOnce();
      const shipped = await order(created.id);
      await carrierEvent({ carrierOrderUuid: shipped.carrierOrderUuid, status: 'in_transit' }).expect(200);
      const before = await stockAndLedger(dbUrl(), sizeId);
      await carrierEvent({ carrierOrderUuid: shipped.carrierOrderUuid, status: 'not_delivered' }).expect(200);
      await carrierEvent({ carrierOrderUuid: shipped.carrierOrderUuid, status: 'returned' }).expect(200);
      expect(await countRows(dbUrl(), 'returns', 'order_id = $1', [created.id])).toBe(1);

      const list = await request(http()).get(`/returns?orderId=${created.id}`).set(clerk.headers).expect(200);
      const ret = list.body.items[0];
      expect(ret).toMatchObject({
        origin: 'carrier',
        status: 'in_transit',
        reasonCode: 'not_delivered',
        externalReturnId: `carrier-${created.orderNumber}`,
        refundKopeks: 0,
        refundStatus: 'not_required',
        items: [{ quantity: 2, receivedQuantity: 0 }],
      });
      expect(await stockAndLedger(dbUrl(), sizeId)).toEqual(before);
      await request(http())
        .post(`/returns/${ret.id}/receive`)
        .set(clerk.headers)
        .send({ items: [{ returnItemId: ret.items[0].id, quantity: 2, disposition: 'restock' }] })
        .expect(200);
      expect(await stockAndLedger(dbUrl(), sizeId)).toEqual({ stock: before.stock + 2, ledger: before.ledger + 2 });
      const back = await order(created.id);
      expect(back).toMatchObject({ status: 'returned', items: [{ returnedQuantity: 2 }] });
    });

    it('appends the order events of its transitions, numbered per order', async () => {
      const created = await platformOrder(1);
      await pay(created.orderNumber, created.totalKopeks).expect(200);
      await cancel(created.id).expect(200);
      const events = await withClient(
        dbUrl(),
        async (c) =>
          (
            await c.query(
              `SELECT type, sequence, data FROM domain_events WHERE subject = 'order' AND subject_id = $1 ORDER BY sequence`,
              [created.id],
            )
          ).rows,
      );
      expect(events.map((e) => [e.sequence, e.type])).toEqual([
        [1, 'order.created'],
        [2, 'order.paid'],
        [3, 'order.cancelled'],
      ]);
      expect(events[2].data).toMatchObject({
        orderId: created.id,
        orderNumber: created.orderNumber,
        status: 'cancelled',
        paymentStatus: 'paid',
        totalKopeks: created.totalKopeks,
        sequence: 3,
      });
    });
  });
}
