import { CarrierStub } from './support/carrier-stub';
import { eventually } from './support/eventually';
import { signPayload } from '../src/common/webhooks/webhook-signature';
import { CARRIER_SECRET, PAYMENT_SECRET } from './support/signed';
import {
  callService,
  SERVICE_ADMIN,
  serviceEnv,
  spawnService,
  stopService,
  type ServiceProcess,
  waitForHealth,
} from './support/service-process';
import { createTestDatabase, withClient, type TestDatabase } from './support/test-database';

let seq = 0;

/** A buyer whose every piece of data is unique to this run, so the logs can be searched for it. */
function buyer() {
  const n = String(200_000 + ++seq).slice(-6);
  return {
    fullName: `Prokhorova${n} Yelizaveta${n} Gennadyevna${n}`,
    phone: `+7 (916) ${n.slice(0, 3)}-${n.slice(3, 5)}-${n.slice(5)}1`,
    normalized: `+7916${n}1`,
    email: `yelizaveta.${n}@example.net`,
    comment: `Call before noon ${n}`,
  };
}
type Buyer = ReturnType<typeof buyer>;
const piecesOf = (who: Buyer) => [
  who.phone,
  who.normalized,
  ...who.fullName.split(' '),
  who.email,
  who.comment,
  // The digits alone, as a log could write a number.
  who.normalized.slice(1),
];

/**
 * The service as a process (contract §17): the log of the whole run, the flows of payment, carrier
 * (whose refusal quotes the recipient), mails without SMTP_URL and the retention sweep included,
 * holds no buyer's phone, e-mail, name or comment. Two instances sweeping together:
 * test/medium/personal-data-retention.medium-spec.ts.
 */
describe('personal data in the service’s log', () => {
  let db: TestDatabase;
  let carrier: CarrierStub;
  let service: ServiceProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    carrier = new CarrierStub({ token: 'carrier-token', failFirst: 1 });
    carrier.quoteOnFailure = true;
    const carrierUrl = await carrier.start();
    const env = {
      LOG_LEVEL: 'info',
      PERSONAL_DATA_CHECK_SECONDS: '1',
      PAYMENT_WEBHOOK_SECRET: PAYMENT_SECRET,
      CARRIER_WEBHOOK_SECRET: CARRIER_SECRET,
      CARRIER_API_URL: carrierUrl,
      CARRIER_API_TOKEN: 'carrier-token',
      OUTBOX_POLL_MS: '100',
      OUTBOX_RETRY_BASE_MS: '100',
      OUTBOX_RETRY_MAX_MS: '400',
    };
    service = spawnService(await serviceEnv(db.url, env));
    await waitForHealth(service);
  });
  afterAll(async () => {
    if (service) await stopService(service);
    await carrier?.stop();
    await db?.drop();
  });

  it('anonymises each due order once, journaled once, and no log line names a buyer', async () => {
    const admin = {
      Authorization: `Bearer ${(await callService(service, 'POST', '/auth/login', SERVICE_ADMIN)).body.token}`,
    };
    const brand = (
      await callService(
        service,
        'POST',
        '/admin/brands',
        { name: 'Twins', slug: 'twins', staffEmail: 'staff@twins.example' },
        admin,
      )
    ).body.id as number;
    const issue = async (permissions: string[]) => ({
      Authorization: `Bearer ${(await callService(service, 'POST', `/admin/brands/${brand}/integration-keys`, { name: 'k', permissions }, admin)).body.key}`,
    });
    const catalog = await issue(['products.write']);
    const clerk = await issue(['orders.write', 'orders.read', 'orders.create_partner']);
    const product = await callService(
      service,
      'POST',
      '/catalog/products',
      { name: 'Tee', article: 'T', storefrontArticle: 'SF-T', priceKopeks: 10000, sizes: [{ name: 'S', stock: 500 }] },
      catalog,
    );
    expect(product.status).toBe(201);

    const buyers = Array.from({ length: 24 }, buyer);
    const orderIds: number[] = [];
    for (const [i, who] of buyers.entries()) {
      const created = await callService(
        service,
        'POST',
        '/orders/integrations/partner/webhook',
        {
          partnerOrderId: `TW-${i}`,
          recipient: { fullName: who.fullName, phone: who.phone, email: who.email },
          comment: who.comment,
          items: [{ article: 'SF-T', size: 'S', quantity: 1 }],
        },
        clerk,
      );
      expect(created.status).toBe(201);
      orderIds.push(created.body.order.id);
      expect(
        (await callService(service, 'POST', `/orders/admin/${created.body.order.id}/cancel`, {}, clerk)).status,
      ).toBe(200);
    }

    // A platform order through payment, a refused then accepted carrier registration, mails and delivery.
    const platformBuyer = buyer();
    const platform = await callService(
      service,
      'POST',
      '/orders/admin',
      {
        recipient: { fullName: platformBuyer.fullName, phone: platformBuyer.phone, email: platformBuyer.email },
        comment: platformBuyer.comment,
        items: [{ sizeId: product.body.sizes[0].id, quantity: 1 }],
        delivery: { city: 'Tver', pvzCode: 'TV1' },
      },
      clerk,
    );
    expect(platform.status).toBe(201);
    const signed = async (path: string, secret: string, body: object) => {
      const raw = JSON.stringify(body);
      const response = await fetch(`${service.baseUrl}${path}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Signature': signPayload(secret, raw, Math.floor(Date.now() / 1000)),
        },
        body: raw,
      });
      expect(response.status).toBe(200);
    };
    const { id: platformId, orderNumber, totalKopeks } = platform.body.order;
    await signed('/payments/webhook', PAYMENT_SECRET, {
      eventId: 'pay-1',
      orderNumber,
      amountKopeks: totalKopeks,
      status: 'succeeded',
      paidAt: new Date().toISOString(),
    });
    const uuid = await eventually(async () => {
      const current = await callService(service, 'GET', `/orders/admin/${platformId}`, undefined, clerk);
      expect(current.body.carrierOrderUuid).toEqual(expect.any(String));
      return current.body.carrierOrderUuid as string;
    });
    await signed('/carrier/webhook', CARRIER_SECRET, {
      eventId: 'car-1',
      carrierOrderUuid: uuid,
      status: 'delivered',
      occurredAt: new Date().toISOString(),
    });
    orderIds.push(platformId);
    await eventually(async () => {
      const jobs = await callService(service, 'GET', '/admin/outbox?state=pending', undefined, admin);
      expect(jobs.body.counts.pending).toBe(0);
    });
    // An export by phone: its query string is no part of any log line or journal path.
    const exported = await callService(
      service,
      'GET',
      `/admin/brands/${brand}/personal-data/export?phone=${encodeURIComponent(platformBuyer.phone)}`,
      undefined,
      admin,
    );
    expect(exported.body.orders).toHaveLength(1);

    // The instance sweeps every second once the brand keeps data for 0 days.
    const retention = `/admin/brands/${brand}/personal-data/retention`;
    expect((await callService(service, 'PUT', retention, { days: 0 }, admin)).status).toBe(200);
    await eventually(async () => {
      const left = await withClient(db.url, (c) =>
        c.query('SELECT count(*)::int AS n FROM orders WHERE personal_data_erased_at IS NULL'),
      );
      expect(left.rows[0].n).toBe(0);
    }, 30_000);

    const events = await withClient(db.url, (c) =>
      c.query<{ subject_id: number; n: number }>(
        `SELECT subject_id, count(*)::int AS n FROM domain_events WHERE type = 'order.personal_data_erased' GROUP BY 1`,
      ),
    );
    expect(events.rows.map((row) => row.n)).toEqual(orderIds.map(() => 1));
    const journal = await callService(
      service,
      'GET',
      `/admin/brands/${brand}/security-journal?type=personal_data_erased&limit=200`,
      undefined,
      admin,
    );
    const journaled = (journal.body.items as Array<{ details: { by: string; erased: number[] } }>).flatMap((entry) => {
      expect(entry.details.by).toBe('retention');
      return entry.details.erased;
    });
    expect(journaled.sort((x, y) => x - y)).toEqual([...orderIds].sort((x, y) => x - y));

    // The run's whole log: the flows ran (mails logged, the refusal retried) and named no buyer.
    const log = service.output();
    expect(log).toContain('mail (SMTP_URL not set)');
    expect(log).toContain('outbox job failed');
    expect(log).toContain('/personal-data/export');
    const lowered = log.toLowerCase();
    const leaks = [...buyers, platformBuyer].flatMap(piecesOf).filter((piece) => lowered.includes(piece.toLowerCase()));
    expect(leaks).toEqual([]);
  });
});
