import { CarrierStub } from './support/carrier-stub';
import { eventually } from './support/eventually';
import {
  SERVICE_ADMIN as ADMIN,
  serviceEnv,
  spawnService,
  stopService,
  waitForHealth,
  type ServiceProcess,
} from './support/service-process';
import { signPayload } from '../src/common/webhooks/webhook-signature';
import { PAYMENT_SECRET } from './support/signed';
import { SmtpSink } from './support/smtp-sink';
import { createTestDatabase, withClient, type TestDatabase } from './support/test-database';

/** The service killed (SIGKILL) while the outbox is calling the carrier, then started again. */
describe('outbox across a crash', () => {
  let db: TestDatabase;
  let sink: SmtpSink;
  let carrier: CarrierStub;
  let env: Record<string, string>;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    sink = new SmtpSink();
    // Slow enough that the kill lands while the registration call is in flight.
    carrier = new CarrierStub({ token: 'tok', delayMs: 1500 });
    const [smtp, carrierUrl] = await Promise.all([sink.start(), carrier.start()]);
    env = await serviceEnv(db.url, {
      PAYMENT_WEBHOOK_SECRET: PAYMENT_SECRET,
      CARRIER_API_URL: carrierUrl,
      CARRIER_API_TOKEN: 'tok',
      SMTP_URL: smtp,
      OUTBOX_POLL_MS: '100',
      OUTBOX_LEASE_SECONDS: '3',
      OUTBOX_RETRY_BASE_MS: '100',
    });
  });
  afterAll(async () => {
    if (service) await stopService(service);
    await Promise.all([sink?.stop(), carrier?.stop()]);
    await db?.drop();
  });

  async function call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: any }> {
    const response = await fetch(`${service!.baseUrl}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json().catch(() => undefined) };
  }

  it('loses nothing and registers and mails nothing twice', async () => {
    service = spawnService(env);
    await waitForHealth(service);
    const admin = { Authorization: `Bearer ${(await call('POST', '/auth/login', ADMIN)).body.token}` };
    const brand = (
      await call('POST', '/admin/brands', { name: 'Crash', slug: 'crash', staffEmail: 'staff@crash.example' }, admin)
    ).body.id;
    const keyOf = async (permissions: string[]) => ({
      Authorization: `Bearer ${(await call('POST', `/admin/brands/${brand}/integration-keys`, { name: 'k', permissions }, admin)).body.key}`,
    });
    const product = (
      await call(
        'POST',
        '/catalog/products',
        { name: 'Tee', article: 'T-1', priceKopeks: 1000, sizes: [{ name: 'M', stock: 10 }] },
        await keyOf(['products.write']),
      )
    ).body;
    const clerk = await keyOf(['orders.write', 'orders.read']);
    const order = (
      await call(
        'POST',
        '/orders/admin',
        {
          recipient: { fullName: 'A B', phone: '+79120000000', email: 'buyer@crash.example' },
          items: [{ sizeId: product.sizes[0].id, quantity: 3 }],
        },
        clerk,
      )
    ).body.order;

    const raw = JSON.stringify({
      eventId: 'pay-1',
      orderNumber: order.orderNumber,
      amountKopeks: 3000,
      status: 'succeeded',
      paidAt: new Date().toISOString(),
    });
    // The relay refuses mail until after the crash: the mail jobs are still pending when the kill
    // lands (none can be half sent), and must each arrive exactly once after the restart.
    sink.down = true;
    const paid = await call('POST', '/payments/webhook', raw, {
      'X-Signature': signPayload(PAYMENT_SECRET, raw, Math.floor(Date.now() / 1000)),
    });
    expect(paid).toEqual({ status: 200, body: { ok: true } });

    // Kill while the carrier is still answering the first registration call.
    await eventually(() => expect(carrier.arrived).toBe(1));
    await stopService(service, 'SIGKILL');
    expect(carrier.calls).toHaveLength(0);
    expect(sink.received).toHaveLength(0);

    sink.down = false;
    service = spawnService(env);
    await waitForHealth(service);
    await eventually(async () => {
      const current = (await call('GET', `/orders/admin/${order.id}`, undefined, clerk)).body;
      expect(current.carrierTrackingNumber).toMatch(/^TRK/);
    }, 30_000);
    await eventually(() => expect(sink.received).toHaveLength(2), 30_000);
    // Give a late duplicate the chance to show up.
    await new Promise((resolve) => setTimeout(resolve, 1500));

    expect(sink.received).toHaveLength(2);
    expect(sink.received.map((m) => m.to[0]).sort()).toEqual(['buyer@crash.example', 'staff@crash.example']);
    expect(carrier.shipments.size).toBe(1);
    expect(carrier.calls.every((c) => c.idempotencyKey === order.orderNumber)).toBe(true);
    const stock = await withClient(db.url, (c) =>
      c.query(
        'SELECT s.stock, (SELECT sum(delta) FROM stock_movements m WHERE m.size_id = s.id)::int AS ledger FROM product_sizes s WHERE s.id = $1',
        [product.sizes[0].id],
      ),
    );
    expect(stock.rows[0]).toEqual({ stock: 7, ledger: 7 });
    const jobs = await withClient(db.url, (c) =>
      c.query('SELECT kind, done_at IS NOT NULL AS done FROM outbox ORDER BY id'),
    );
    expect(jobs.rows.every((j: { done: boolean }) => j.done)).toBe(true);
  });
});
