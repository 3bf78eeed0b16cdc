import { signPayload } from '../src/common/webhooks/webhook-signature';
import { CarrierStub } from './support/carrier-stub';
import { eventually } from './support/eventually';
import {
  callService,
  SERVICE_ADMIN as ADMIN,
  serviceEnv,
  spawnService,
  stopService,
  waitForHealth,
  type ServiceProcess,
} from './support/service-process';
import { PAYMENT_SECRET } from './support/signed';
import { SmtpSink } from './support/smtp-sink';
import { createTestDatabase, withClient, type TestDatabase } from './support/test-database';

const ORDERS = 12;
const SLOW_MS = 2_500;

/**
 * Two worker processes, a carrier and an SMTP server that each take longer than the outbox lease
 * to answer: every shipment is still registered once and every mail sent once, because a running
 * job's lease is renewed while it runs.
 */
describe('outbox jobs slower than their lease, two instances', () => {
  let db: TestDatabase;
  let services: ServiceProcess[] = [];
  const carrier = new CarrierStub({ delayMs: SLOW_MS });
  const smtp = new SmtpSink({ delayMs: SLOW_MS });

  beforeAll(async () => {
    db = await createTestDatabase();
    const [carrierUrl, smtpUrl] = await Promise.all([carrier.start(), smtp.start()]);
    const env = () =>
      serviceEnv(db.url, {
        PAYMENT_WEBHOOK_SECRET: PAYMENT_SECRET,
        CARRIER_API_URL: carrierUrl,
        CARRIER_TIMEOUT_MS: '10000',
        SMTP_URL: smtpUrl,
        OUTBOX_LEASE_SECONDS: '2',
        OUTBOX_POLL_MS: '100',
      });
    services = (await Promise.all([env(), env()])).map((e) => spawnService(e));
    await Promise.all(services.map((s) => waitForHealth(s)));
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => stopService(s)));
    await Promise.all([carrier.stop(), smtp.stop()]);
    await db?.drop();
  });

  /** A call that must succeed; its answer. */
  async function call(
    service: ServiceProcess,
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const response = await callService(service, method, url, body, headers);
    if (response.status >= 300)
      throw new Error(`${method} ${url} → ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  }

  it('registers every shipment once and sends every mail once', async () => {
    const [first, second] = services;
    const admin = { Authorization: `Bearer ${(await call(first, 'POST', '/auth/login', ADMIN)).token}` };
    const brand = (
      await call(
        first,
        'POST',
        '/admin/brands',
        { name: 'Slow', slug: 'slow', staffEmail: 'staff@slow.example' },
        admin,
      )
    ).id;
    const key = (
      await call(
        first,
        'POST',
        `/admin/brands/${brand}/integration-keys`,
        { name: 'k', permissions: ['orders.write', 'products.write'] },
        admin,
      )
    ).key;
    const auth = { Authorization: `Bearer ${key}` };
    const product = await call(
      first,
      'POST',
      '/catalog/products',
      { name: 'Tee', article: 'T', priceKopeks: 100, sizes: [{ name: 'S', stock: 100 }] },
      auth,
    );

    for (let i = 0; i < ORDERS; i++) {
      const service = i % 2 ? second : first;
      const { order } = await call(
        service,
        'POST',
        '/orders/admin',
        {
          recipient: { fullName: 'A B', phone: '+79120000000', email: `buyer${i}@example.com` },
          delivery: { city: 'Moscow' },
          items: [{ sizeId: product.sizes[0].id, quantity: 1 }],
        },
        auth,
      );
      const payment = JSON.stringify({
        eventId: `pay-${i}`,
        orderNumber: order.orderNumber,
        amountKopeks: order.totalKopeks,
        status: 'succeeded',
        paidAt: new Date().toISOString(),
      });
      const signature = signPayload(PAYMENT_SECRET, payment, Math.floor(Date.now() / 1000));
      const response = await fetch(`${service.baseUrl}/payments/webhook`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Signature': signature },
        body: payment,
      });
      expect(response.status).toBe(200);
    }

    // Each paid order: one carrier registration, the buyer's payment mail, the staff mail.
    await eventually(async () => {
      const pending = await withClient(db.url, (c) =>
        c.query('SELECT count(*)::int AS n FROM outbox WHERE done_at IS NULL'),
      );
      expect(pending.rows[0].n).toBe(0);
    }, 90_000);
    // Time for a job whose lease had lapsed to be run a second time, were that possible.
    await new Promise((resolve) => setTimeout(resolve, SLOW_MS * 2));

    const perKey = new Map<string, number>();
    for (const c of carrier.calls) perKey.set(c.idempotencyKey ?? '', (perKey.get(c.idempotencyKey ?? '') ?? 0) + 1);
    expect(carrier.arrived).toBe(ORDERS);
    expect([...perKey.values()]).toEqual(Array(ORDERS).fill(1));

    const messageIds = smtp.received.map((m) => m.messageId);
    expect(messageIds).toHaveLength(ORDERS * 2);
    expect(new Set(messageIds).size).toBe(ORDERS * 2);
    expect(smtp.to('staff@slow.example')).toHaveLength(ORDERS);

    const shipped = await withClient(db.url, (c) =>
      c.query('SELECT count(*)::int AS n FROM orders WHERE carrier_tracking_number IS NOT NULL'),
    );
    expect(shipped.rows[0].n).toBe(ORDERS);
  });
});
