import request from 'supertest';
import { CarrierStub } from './support/carrier-stub';
import { eventually } from './support/eventually';
import { createProduct, Fixtures, issueKey, journal, type IssuedKey } from './support/fixtures';
import { CARRIER_SECRET, PAYMENT_SECRET, postSigned } from './support/signed';
import { SmtpSink } from './support/smtp-sink';
import { countRows, stockAndLedger } from './support/stock-probe';
import { createTestDatabase, withClient, type TestDatabase } from './support/test-database';
import { startTestApp, type TestApp } from './support/test-app';

const STAFF = 'staff@northwind.example';
const BUYER = 'buyer@example.com';
let eventSeq = 0;
const eventId = () => `evt-${process.pid}-${++eventSeq}`;
const now = () => Math.floor(Date.now() / 1000);

describe('payment confirmation and carrier delivery flows', () => {
  let db: TestDatabase;
  let t: TestApp;
  let fx: Fixtures;
  let sink: SmtpSink;
  let carrier: CarrierStub;
  let brand: number;
  let clerk: IssuedKey;
  let sizeId: number;

  const env = (smtpUrl: string, carrierUrl: string) => ({
    PAYMENT_WEBHOOK_SECRET: PAYMENT_SECRET,
    CARRIER_WEBHOOK_SECRET: CARRIER_SECRET,
    CARRIER_API_URL: carrierUrl,
    CARRIER_API_TOKEN: 'carrier-token',
    SMTP_URL: smtpUrl,
    MAIL_FROM: 'Northwind <shop@northwind.example>',
    OUTBOX_POLL_MS: '100',
    OUTBOX_RETRY_BASE_MS: '100',
    OUTBOX_RETRY_MAX_MS: '400',
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    sink = new SmtpSink();
    carrier = new CarrierStub({ token: 'carrier-token' });
    const [smtpUrl, carrierUrl] = await Promise.all([sink.start(), carrier.start()]);
    t = await startTestApp({ databaseUrl: db.url, env: env(smtpUrl, carrierUrl) });
    fx = await Fixtures.create(t.http);
    const created = await request(t.http)
      .post('/admin/brands')
      .set({ Authorization: `Bearer ${fx.admin.token}` })
      .send({ name: 'Northwind', slug: 'northwind', staffEmail: STAFF })
      .expect(201);
    brand = created.body.id;
    clerk = await issueKey(fx, brand, { permissions: ['orders.write', 'orders.read'] });
    const product = await createProduct(fx, brand, {
      article: 'LS-1',
      storefrontArticle: 'SF-LS-1',
      priceKopeks: 100000,
      sizes: [{ name: 'M', stock: 100 }],
    });
    sizeId = product.sizes[0].id;
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([sink?.stop(), carrier?.stop()]);
    await db?.drop();
  });

  /** A pending platform order of 2 × 1000.00 + 300.00 delivery = 230000 kopeks. */
  async function pendingOrder(email: string | undefined = BUYER) {
    const response = await request(t.http)
      .post('/orders/admin')
      .set(clerk.headers)
      .send({
        recipient: { fullName: 'Ivanova Maria', phone: '+79120000000', ...(email ? { email } : {}) },
        items: [{ sizeId, quantity: 2 }],
        delivery: { city: 'Kazan', pvzCode: 'KZN1', deliveryCostKopeks: 30000 },
      })
      .expect(201);
    return response.body.order as { id: number; orderNumber: string; totalKopeks: number };
  }
  const pay = (orderNumber: string, over: Record<string, unknown> = {}) =>
    postSigned(t.http, '/payments/webhook', PAYMENT_SECRET, {
      eventId: eventId(),
      orderNumber,
      amountKopeks: 230000,
      status: 'succeeded',
      paidAt: new Date().toISOString(),
      ...over,
    });
  const order = async (id: number) =>
    (await request(t.http).get(`/orders/admin/${id}`).set(clerk.headers).expect(200)).body;
  const mailsAbout = (orderNumber: string) => sink.received.filter((m) => m.raw.includes(orderNumber));

  describe('signatures', () => {
    const body = () => ({
      eventId: eventId(),
      orderNumber: '1',
      amountKopeks: 1,
      status: 'failed',
      paidAt: new Date().toISOString(),
    });
    it.each([
      ['a wrong secret', (b: unknown) => postSigned(t.http, '/payments/webhook', 'some-other-secret-123', b)],
      [
        'an altered body',
        (b: unknown) =>
          postSigned(t.http, '/payments/webhook', PAYMENT_SECRET, b, {
            tamper: (raw) => raw.replace('"failed"', '"succeeded"'),
          }),
      ],
      [
        'a stale timestamp',
        (b: unknown) => postSigned(t.http, '/payments/webhook', PAYMENT_SECRET, b, { timestamp: now() - 301 }),
      ],
      [
        // Not +301: the service's clock may tick a second between signing and checking, which
        // would make this 300 s ahead and valid. The exact bounds are in webhook-signature.spec.
        'a future timestamp',
        (b: unknown) => postSigned(t.http, '/payments/webhook', PAYMENT_SECRET, b, { timestamp: now() + 305 }),
      ],
      ['the carrier’s secret', (b: unknown) => postSigned(t.http, '/payments/webhook', CARRIER_SECRET, b)],
      [
        'no header',
        (b: unknown) =>
          request(t.http)
            .post('/payments/webhook')
            .send(b as object),
      ],
      [
        'a malformed header',
        (b: unknown) =>
          request(t.http)
            .post('/payments/webhook')
            .set('X-Signature', 'v1=abc,t=')
            .send(b as object),
      ],
      [
        'a key instead of a signature',
        (b: unknown) =>
          request(t.http)
            .post('/payments/webhook')
            .set(clerk.headers)
            .send(b as object),
      ],
    ])('%s → 401 Invalid signature', async (_, call) => {
      const response = await call(body()).expect(401);
      expect(response.body.error).toBe('Invalid signature');
    });

    it('the carrier webhook checks its own secret', async () => {
      const event = {
        eventId: eventId(),
        carrierOrderUuid: 'x',
        status: 'in_transit',
        occurredAt: new Date().toISOString(),
      };
      expect((await postSigned(t.http, '/carrier/webhook', PAYMENT_SECRET, event).expect(401)).body.error).toBe(
        'Invalid signature',
      );
      await postSigned(t.http, '/carrier/webhook', CARRIER_SECRET, event).expect(404);
    });

    it('a signed but invalid body → 400 listing the problems', async () => {
      const response = await postSigned(t.http, '/payments/webhook', PAYMENT_SECRET, {
        eventId: '',
        status: 'maybe',
      }).expect(400);
      expect(response.body.details).toEqual([
        'eventId must not be empty',
        'orderNumber must be a string',
        'amountKopeks must be an integer from 0 to 5000000100000000',
        'status must be one of the following values: succeeded, failed',
        'paidAt must be a valid ISO 8601 date string',
      ]);
    });
  });

  describe('payment', () => {
    it('succeeded with the right amount: paid, stock deducted once, shipment registered with tracking, staff and buyer mailed', async () => {
      const pending = await pendingOrder();
      const before = await stockAndLedger(db.url, sizeId);
      expect((await pay(pending.orderNumber).expect(200)).body).toEqual({ ok: true });
      const paid = await order(pending.id);
      expect(paid).toMatchObject({ status: 'paid', paymentStatus: 'paid', paidAt: expect.any(String) });
      expect(await stockAndLedger(db.url, sizeId)).toEqual({ stock: before.stock - 2, ledger: before.stock - 2 });

      const registered = await eventually(async () => {
        const current = await order(pending.id);
        expect(current.carrierTrackingNumber).toMatch(/^TRK/);
        return current;
      });
      const shipment = carrier.shipments.get(pending.orderNumber)!;
      expect(registered.carrierOrderUuid).toBe(shipment.uuid);
      expect(shipment.body).toEqual({
        orderNumber: pending.orderNumber,
        recipient: { fullName: 'Ivanova Maria', phone: '+79120000000', email: BUYER },
        delivery: { city: 'Kazan', pvzCode: 'KZN1' },
        items: [{ article: 'LS-1', size: 'M', quantity: 2 }],
      });
      const mails = await eventually(() => {
        const received = mailsAbout(pending.orderNumber);
        expect(received).toHaveLength(2);
        return received;
      });
      expect(mails.find((m) => m.to.includes(STAFF))?.subject).toBe(`New paid order ${pending.orderNumber}`);
      expect(mails.find((m) => m.to.includes(BUYER))?.subject).toBe(
        `Northwind: payment for order ${pending.orderNumber} received`,
      );
      expect(mails.every((m) => /multipart\/alternative/.test(m.raw) && /text\/html/.test(m.raw))).toBe(true);
    });

    it('a repeated eventId → 200 duplicate; a second payment event for a paid order changes nothing', async () => {
      const pending = await pendingOrder();
      const first = {
        eventId: eventId(),
        orderNumber: pending.orderNumber,
        amountKopeks: 230000,
        status: 'succeeded',
        paidAt: new Date().toISOString(),
      };
      await postSigned(t.http, '/payments/webhook', PAYMENT_SECRET, first).expect(200);
      const stock = await stockAndLedger(db.url, sizeId);
      expect((await postSigned(t.http, '/payments/webhook', PAYMENT_SECRET, first).expect(200)).body).toEqual({
        ok: true,
        duplicate: true,
      });
      expect((await pay(pending.orderNumber).expect(200)).body).toEqual({ ok: true });
      expect(await stockAndLedger(db.url, sizeId)).toEqual(stock);
      await eventually(() => expect(mailsAbout(pending.orderNumber)).toHaveLength(2));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(mailsAbout(pending.orderNumber)).toHaveLength(2);
      expect(
        await countRows(db.url, 'outbox', `kind = 'carrier.register_shipment' AND payload->>'orderId' = $1`, [
          String(pending.id),
        ]),
      ).toBe(1);
    });

    it('the same event ten times at once is processed once', async () => {
      const pending = await pendingOrder(undefined);
      const event = {
        eventId: eventId(),
        orderNumber: pending.orderNumber,
        amountKopeks: 230000,
        status: 'succeeded',
        paidAt: new Date().toISOString(),
      };
      const before = await stockAndLedger(db.url, sizeId);
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => postSigned(t.http, '/payments/webhook', PAYMENT_SECRET, event)),
      );
      expect(responses.filter((r) => r.status === 200 && !r.body.duplicate)).toHaveLength(1);
      expect(responses.filter((r) => r.status === 200 && r.body.duplicate === true)).toHaveLength(9);
      expect((await stockAndLedger(db.url, sizeId)).stock).toBe(before.stock - 2);
    });

    it('an unknown order → 404 Not found, and the event is not recorded (a later retry can apply)', async () => {
      const event = {
        eventId: eventId(),
        orderNumber: '999999999',
        amountKopeks: 230000,
        status: 'succeeded',
        paidAt: new Date().toISOString(),
      };
      expect((await postSigned(t.http, '/payments/webhook', PAYMENT_SECRET, event).expect(404)).body.error).toBe(
        'Not found',
      );
      expect(await countRows(db.url, 'inbound_events', 'event_id = $1', [event.eventId])).toBe(0);
      const pending = await pendingOrder();
      await postSigned(t.http, '/payments/webhook', PAYMENT_SECRET, {
        ...event,
        orderNumber: pending.orderNumber,
      }).expect(200);
      expect((await order(pending.id)).paymentStatus).toBe('paid');
    });

    it('an amount mismatch → 200 {ok: true}, the order stays pending, the journal gets payment_amount_mismatch', async () => {
      const pending = await pendingOrder();
      const before = await stockAndLedger(db.url, sizeId);
      const event = {
        eventId: eventId(),
        orderNumber: pending.orderNumber,
        amountKopeks: 1000,
        status: 'succeeded',
        paidAt: new Date().toISOString(),
      };
      expect((await postSigned(t.http, '/payments/webhook', PAYMENT_SECRET, event).expect(200)).body).toEqual({
        ok: true,
      });
      expect(await order(pending.id)).toMatchObject({ status: 'new', paymentStatus: 'pending' });
      expect(await stockAndLedger(db.url, sizeId)).toEqual(before);
      const entry = (await journal(fx)).find(
        (e) => e.type === 'payment_amount_mismatch' && e.details.eventId === event.eventId,
      );
      expect(entry).toMatchObject({
        brandId: brand,
        actor: { kind: 'webhook', id: null },
        details: { orderNumber: pending.orderNumber, expectedKopeks: 230000, receivedKopeks: 1000 },
      });
      await postSigned(t.http, '/payments/webhook', PAYMENT_SECRET, event).expect(200, { ok: true, duplicate: true });
    });

    it('failed → recorded, the order stays pending', async () => {
      const pending = await pendingOrder();
      await pay(pending.orderNumber, { status: 'failed' }).expect(200, { ok: true });
      expect(await order(pending.id)).toMatchObject({ status: 'new', paymentStatus: 'pending' });
      expect(await countRows(db.url, 'inbound_events', `order_id = $1 AND outcome = 'failed'`, [pending.id])).toBe(1);
    });
  });

  describe('outages', () => {
    it('the carrier failing twice, then succeeding: registered once, on the third call', async () => {
      // Earlier tests' shipments first, so the two failures fall on this order.
      await eventually(async () =>
        expect(
          await countRows(
            db.url,
            'outbox',
            `kind = 'carrier.register_shipment' AND done_at IS NULL AND failed_at IS NULL`,
          ),
        ).toBe(0),
      );
      const pending = await pendingOrder();
      carrier.failNext(2);
      await pay(pending.orderNumber).expect(200);
      await eventually(async () => expect((await order(pending.id)).carrierTrackingNumber).toMatch(/^TRK/));
      const calls = carrier.calls.filter((c) => c.idempotencyKey === pending.orderNumber);
      expect(calls.map((c) => c.status)).toEqual([503, 503, 201]);
    });

    it('the carrier down for a while: the job waits with its error visible, then completes when it is back', async () => {
      const pending = await pendingOrder();
      carrier.down = true;
      try {
        await pay(pending.orderNumber).expect(200);
        const stuck = await eventually(async () => {
          const outbox = await request(t.http)
            .get('/admin/outbox?state=pending')
            .set({ Authorization: `Bearer ${fx.admin.token}` })
            .expect(200);
          const job = outbox.body.items.find(
            (j: { kind: string; payload: { orderId: number } }) =>
              j.kind === 'carrier.register_shipment' && j.payload.orderId === pending.id,
          );
          expect(job.attempts).toBeGreaterThanOrEqual(2);
          return job;
        });
        expect(stuck.lastError).toMatch(/carrier answered 503/);
        // The bank's answer and the mails did not wait for the carrier.
        await eventually(() => expect(mailsAbout(pending.orderNumber)).toHaveLength(2));
      } finally {
        carrier.down = false;
      }
      await eventually(async () => expect((await order(pending.id)).carrierTrackingNumber).toMatch(/^TRK/));
    });

    it('the mail server down for a while: nothing is lost and nothing is sent twice', async () => {
      const pending = await pendingOrder();
      sink.down = true;
      try {
        await pay(pending.orderNumber).expect(200);
        await eventually(async () => {
          const outbox = await request(t.http)
            .get('/admin/outbox?state=pending')
            .set({ Authorization: `Bearer ${fx.admin.token}` })
            .expect(200);
          const mailJobs = outbox.body.items.filter(
            (j: { kind: string; payload: { orderId: number }; attempts: number }) =>
              j.kind.startsWith('mail.') && j.payload.orderId === pending.id,
          );
          expect(mailJobs).toHaveLength(2);
          expect(
            mailJobs.every((j: { attempts: number; lastError: string }) => j.attempts >= 2 && /451/.test(j.lastError)),
          ).toBe(true);
        });
        expect(mailsAbout(pending.orderNumber)).toHaveLength(0);
      } finally {
        sink.down = false;
      }
      await eventually(() => expect(mailsAbout(pending.orderNumber)).toHaveLength(2));
      await new Promise((resolve) => setTimeout(resolve, 600));
      const mails = mailsAbout(pending.orderNumber);
      expect(mails).toHaveLength(2);
      expect(new Set(mails.map((m) => m.messageId)).size).toBe(2);
    });
  });

  describe('carrier status events', () => {
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 22, 10, minutes)).toISOString();
    const event = (over: Record<string, unknown>) =>
      postSigned(t.http, '/carrier/webhook', CARRIER_SECRET, { eventId: eventId(), ...over });

    async function shippedOrder() {
      const pending = await pendingOrder();
      await pay(pending.orderNumber).expect(200);
      return eventually(async () => {
        const current = await order(pending.id);
        expect(current.carrierOrderUuid).toEqual(expect.any(String));
        return current as { id: number; orderNumber: string; carrierOrderUuid: string; carrierTrackingNumber: string };
      });
    }

    it('applies statuses in occurredAt order: an older event after a newer one changes nothing', async () => {
      const shipped = await shippedOrder();
      await event({ carrierOrderUuid: shipped.carrierOrderUuid, status: 'in_transit', occurredAt: at(10) }).expect(
        200,
        { ok: true },
      );
      expect(await order(shipped.id)).toMatchObject({ status: 'shipped', deliveryStatus: 'in_transit' });
      await event({ trackingNumber: shipped.carrierTrackingNumber, status: 'delivered', occurredAt: at(30) }).expect(
        200,
        { ok: true },
      );
      expect(await order(shipped.id)).toMatchObject({ status: 'completed', deliveryStatus: 'delivered' });
      await event({ carrierOrderUuid: shipped.carrierOrderUuid, status: 'arrived', occurredAt: at(20) }).expect(200, {
        ok: true,
      });
      expect(await order(shipped.id)).toMatchObject({ status: 'completed', deliveryStatus: 'delivered' });
      // A buyer mail for each applied change (in_transit, delivered), none for the stale one.
      await eventually(() =>
        expect(mailsAbout(shipped.orderNumber).filter((m) => m.to.includes(BUYER))).toHaveLength(3),
      );
      const subjects = mailsAbout(shipped.orderNumber).map((m) => m.subject);
      expect(subjects).toContain(`Northwind: order ${shipped.orderNumber}: Your parcel is on its way`);
      expect(subjects).toContain(`Northwind: order ${shipped.orderNumber}: Your parcel has been delivered`);
    });

    it('returned marks the order returned; a repeated eventId is a duplicate', async () => {
      const shipped = await shippedOrder();
      const returned = {
        eventId: eventId(),
        carrierOrderUuid: shipped.carrierOrderUuid,
        status: 'returned',
        occurredAt: at(40),
      };
      await postSigned(t.http, '/carrier/webhook', CARRIER_SECRET, returned).expect(200, { ok: true });
      expect(await order(shipped.id)).toMatchObject({ status: 'returned', deliveryStatus: 'returned' });
      await postSigned(t.http, '/carrier/webhook', CARRIER_SECRET, returned).expect(200, { ok: true, duplicate: true });
    });

    it('an unknown shipment → 404, not recorded', async () => {
      const unknown = {
        eventId: eventId(),
        carrierOrderUuid: 'no-such-shipment',
        status: 'in_transit',
        occurredAt: at(1),
      };
      await postSigned(t.http, '/carrier/webhook', CARRIER_SECRET, unknown).expect(404);
      expect(await countRows(db.url, 'inbound_events', 'event_id = $1', [unknown.eventId])).toBe(0);
    });

    it('a storefront order reaches the carrier flow through its own carrierOrderUuid', async () => {
      const storefront = await issueKey(fx, brand, { permissions: ['orders.create_partner'] });
      const created = await request(t.http)
        .post('/orders/integrations/partner/webhook')
        .set(storefront.headers)
        .send({
          partnerOrderId: `SF-${eventId()}`,
          recipient: { fullName: 'A B', phone: '+79120000000' },
          items: [{ article: 'SF-LS-1', size: 'M', quantity: 1 }],
          carrierOrderUuid: `sf-uuid-${eventSeq}`,
        })
        .expect(201);
      await event({ carrierOrderUuid: `sf-uuid-${eventSeq}`, status: 'delivered', occurredAt: at(5) }).expect(200);
      expect(await order(created.body.order.id)).toMatchObject({ status: 'completed', deliveryStatus: 'delivered' });
    });

    it('refuses an event naming no shipment, or an unknown status, with 400', async () => {
      const none = await event({ status: 'in_transit', occurredAt: at(1) }).expect(400);
      expect(none.body.error).toBe('carrierOrderUuid or trackingNumber is required');
      const bad = await event({ carrierOrderUuid: 'x', status: 'teleported', occurredAt: at(1) }).expect(400);
      expect(bad.body.error).toBe(
        'status must be one of: registered, accepted, in_transit, arrived, delivered, not_delivered, returned',
      );
    });
  });

  describe('giving up', () => {
    it('after the retry window (24 hours) the order is flagged, the job shows as failed, and staff are mailed', async () => {
      carrier.down = true;
      try {
        const pending = await pendingOrder();
        await pay(pending.orderNumber).expect(200);
        // Its first attempt was made a day ago, as far as the worker can tell: the next failure is its last.
        const backdated = await withClient(db.url, (c) =>
          c.query(
            `UPDATE outbox SET created_at = created_at - interval '1 day'
              WHERE kind = 'carrier.register_shipment' AND (payload->>'orderId')::int = $1`,
            [pending.id],
          ),
        );
        expect(backdated.rowCount).toBe(1);
        const flagged = await eventually(async () => {
          const current = await order(pending.id);
          expect(current.carrierRegistrationFailedAt).toEqual(expect.any(String));
          return current;
        });
        expect(flagged.carrierTrackingNumber).toBeNull();
        await eventually(() =>
          expect(
            sink
              .to(STAFF)
              .filter((m) => m.subject === `Shipment for order ${pending.orderNumber} could not be registered`),
          ).toHaveLength(1),
        );
        const failed = await request(t.http)
          .get('/admin/outbox?state=failed')
          .set({ Authorization: `Bearer ${fx.admin.token}` })
          .expect(200);
        expect(failed.body.counts.failed).toBeGreaterThanOrEqual(1);
        expect(
          failed.body.items.some(
            (j: { kind: string; payload: { orderId: number } }) =>
              j.kind === 'carrier.register_shipment' && j.payload.orderId === pending.id,
          ),
        ).toBe(true);
      } finally {
        carrier.down = false;
      }
    });
  });
});
