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
import { createTestDatabase, type TestDatabase } from './support/test-database';
import { WebhookReceiver } from './support/webhook-receiver';

/**
 * Webhook delivery across service processes on one database (contract §10): a committed event
 * survives a kill -9 of the instance that wrote it. Instances sharing the deliveries and starting
 * them at once: test/medium/webhook-instances.medium-spec.ts.
 */
describe('webhook delivery across instances', () => {
  let db: TestDatabase;
  let receiver: WebhookReceiver;
  const running: ServiceProcess[] = [];

  async function start(extra: Record<string, string> = {}): Promise<ServiceProcess> {
    const service = spawnService(
      await serviceEnv(db.url, {
        SECRETS_ENCRYPTION_KEY: 'cd'.repeat(32),
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_POLL_MS: '100',
        OUTBOX_WORKER: 'false',
        ...extra,
      }),
    );
    running.push(service);
    await waitForHealth(service);
    return service;
  }

  /** A brand with a storefront key, a product and an endpoint for its new orders at `path`. */
  async function setUp(service: ServiceProcess, slug: string, path: string) {
    const admin = { Authorization: `Bearer ${(await callService(service, 'POST', '/auth/login', ADMIN)).body.token}` };
    const brand = (await callService(service, 'POST', '/admin/brands', { name: slug, slug }, admin)).body.id as number;
    const key = async (permissions: string[]) =>
      `Bearer ${(await callService(service, 'POST', `/admin/brands/${brand}/integration-keys`, { name: 'k', permissions }, admin)).body.key}`;
    const product = {
      name: 'Scarf',
      article: 'SC',
      storefrontArticle: 'SF-SC',
      priceKopeks: 100,
      sizes: [{ name: 'One' }],
    };
    await callService(service, 'POST', '/catalog/products', product, { Authorization: await key(['products.write']) });
    const endpoint = await callService(
      service,
      'POST',
      `/admin/brands/${brand}/webhook-endpoints`,
      { url: receiver.url(path), eventTypes: ['order.created'] },
      admin,
    );
    expect(endpoint.status).toBe(201);
    return { Authorization: await key(['orders.create_partner']) };
  }

  const order = (service: ServiceProcess, auth: Record<string, string>, partnerOrderId: string) =>
    callService(
      service,
      'POST',
      '/orders/integrations/partner/webhook',
      {
        partnerOrderId,
        recipient: { fullName: 'A B', phone: '+79120000000' },
        items: [{ article: 'SF-SC', size: 'One', quantity: 1 }],
      },
      auth,
    );

  beforeAll(async () => {
    db = await createTestDatabase();
    receiver = new WebhookReceiver();
    await receiver.start();
  });
  afterAll(async () => {
    await Promise.all(running.map((s) => stopService(s, 'SIGKILL')));
    await receiver?.stop();
    await db?.drop();
  });

  it('delivers an event committed just before its instance was killed, once another instance runs', async () => {
    const writer = await start({ WEBHOOK_WORKER: 'false' });
    const auth = await setUp(writer, 'killed', '/after-kill');
    expect((await order(writer, auth, 'K-1')).status).toBe(201);
    await stopService(writer, 'SIGKILL');
    expect(receiver.at('/after-kill')).toEqual([]);

    await start();
    const [message] = await eventually(() => {
      const got = receiver.at('/after-kill');
      expect(got).toHaveLength(1);
      return got;
    });
    expect(message.json).toMatchObject({ type: 'order.created', data: { partnerOrderId: 'K-1', sequence: 1 } });
  });
});
