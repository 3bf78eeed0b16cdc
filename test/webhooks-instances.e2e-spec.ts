import { Client } from 'pg';
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
import { createTestDatabase, withClient, type TestDatabase } from './support/test-database';
import { WebhookReceiver } from './support/webhook-receiver';

/**
 * Webhook delivery across service processes on one database (contract §10): a committed event
 * survives a kill -9 of the instance that wrote it, three instances share the deliveries, and a
 * delivery is started at once: by the writer's own worker, or by another instance's when the
 * writer runs none, without waiting for a poll.
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

  /** A brand with a storefront key, a product and an endpoint for `eventTypes` at `path`. */
  async function setUp(
    service: ServiceProcess,
    slug: string,
    path: string,
    eventTypes = ['order.created'],
    permissions = ['orders.create_partner'],
  ) {
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
      { url: receiver.url(path), eventTypes },
      admin,
    );
    expect(endpoint.status).toBe(201);
    return { Authorization: await key(permissions) };
  }

  /** setUp's brand and endpoint, with the administrator's session that manages them. */
  async function setUpManaged(service: ServiceProcess, slug: string, path: string) {
    await setUp(service, slug, path);
    const admin = { Authorization: `Bearer ${(await callService(service, 'POST', '/auth/login', ADMIN)).body.token}` };
    const brand = (await callService(service, 'GET', '/admin/brands', undefined, admin)).body.items.find(
      (b: { slug: string }) => b.slug === slug,
    ).id as number;
    const [endpoint] = (await callService(service, 'GET', `/admin/brands/${brand}/webhook-endpoints`, undefined, admin))
      .body.items;
    return { admin, endpoint: `/admin/brands/${brand}/webhook-endpoints/${endpoint.id}` };
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

  it('three instances share the deliveries: every message arrives, none twice', async () => {
    const instances = [await start(), await start(), await start()];
    const auth = await setUp(instances[0], 'shared', '/shared');
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => order(instances[i % 3], auth, `S-${i}`)));
    expect(answers.every((a) => a.status === 201)).toBe(true);
    const ids = await eventually(() => {
      const got = receiver.at('/shared').map((m) => String(m.headers['webhook-id']));
      expect(new Set(got).size).toBe(60);
      return got;
    }, 30_000);
    const duplicates = ids.length - new Set(ids).size;
    expect(duplicates).toBe(0);
    const orders = new Set(receiver.at('/shared').map((m) => m.json.data.partnerOrderId));
    expect(orders.size).toBe(60);
  });

  it("a writer running a worker starts on its own orders' deliveries at once, without notifying the other instances", async () => {
    await Promise.all(running.splice(0).map((s) => stopService(s, 'SIGKILL')));
    // Its first pass runs at start; the next would come a minute later.
    const instance = await start({ WEBHOOK_POLL_MS: '60000' });
    const auth = await setUp(
      instance,
      'own',
      '/own',
      ['order.created', 'order.cancelled'],
      ['orders.create_partner', 'orders.write'],
    );
    const heard: string[] = [];
    const listener = new Client({ connectionString: db.url });
    await listener.connect();
    try {
      listener.on('notification', (message) => heard.push(message.channel));
      await listener.query('LISTEN webhook_due');
      // The storefront's statement commits by itself; a cancellation commits a transaction.
      const created = await order(instance, auth, 'O-1');
      expect(created.status).toBe(201);
      expect((await order(instance, auth, 'O-2')).status).toBe(201);
      await eventually(() => expect(receiver.at('/own')).toHaveLength(2), 5_000);
      const cancelled = await callService(instance, 'POST', `/orders/admin/${created.body.order.id}/cancel`, {}, auth);
      expect(cancelled.status).toBe(200);
      await eventually(() => expect(receiver.at('/own').map((m) => m.json.type)).toContain('order.cancelled'), 5_000);
      // A NOTIFY would have arrived with the commit, before the delivery it announced.
      expect(heard).toEqual([]);
    } finally {
      await listener.end();
    }
  });

  it('a test message and a retry are sent at once by the instance that took them, not at its next poll', async () => {
    await Promise.all(running.splice(0).map((s) => stopService(s, 'SIGKILL')));
    // Its first pass runs at start; the next would come a minute later.
    const instance = await start({ WEBHOOK_POLL_MS: '60000' });
    const { admin, endpoint } = await setUpManaged(instance, 'manual', '/manual');
    const test = await callService(instance, 'POST', `${endpoint}/test`, {}, admin);
    expect(test.status).toBe(202);
    await eventually(() => expect(receiver.at('/manual').map((m) => m.json.type)).toEqual(['webhook.test']), 5_000);
    const retried = await callService(
      instance,
      'POST',
      `${endpoint}/deliveries/${test.body.messageId}/retry`,
      {},
      admin,
    );
    expect(retried.status).toBe(202);
    await eventually(() => expect(receiver.at('/manual')).toHaveLength(2), 5_000);
    expect(receiver.at('/manual').map((m) => m.headers['webhook-id'])).toEqual([
      test.body.messageId,
      test.body.messageId,
    ]);
  });

  it('a writer whose worker has no room notifies the other instances, whose worker starts at once', async () => {
    await Promise.all(running.splice(0).map((s) => stopService(s, 'SIGKILL')));
    // Both instances' first passes run at start; the next would come a minute later.
    const writer = await start({ WEBHOOK_POLL_MS: '60000', WEBHOOK_CONCURRENCY: '1', WEBHOOK_TIMEOUT_MS: '20000' });
    await start({ WEBHOOK_POLL_MS: '60000' });
    const auth = await setUp(writer, 'full', '/full');
    receiver.answer('/full', 'hang');
    try {
      // The writer's worker takes the first order's delivery itself, and its one slot stays taken.
      expect((await order(writer, auth, 'F-1')).status).toBe(201);
      await eventually(() => expect(receiver.at('/full')).toHaveLength(1), 5_000);
      expect((await order(writer, auth, 'F-2')).status).toBe(201);
      await eventually(() => expect(receiver.at('/full')).toHaveLength(2), 5_000);
      expect(new Set(receiver.at('/full').map((m) => m.json.data.partnerOrderId))).toEqual(new Set(['F-1', 'F-2']));
    } finally {
      receiver.release();
    }
  });

  it('a worker starts on a delivery another instance committed at once, not at its next poll, after a lost connection too', async () => {
    await Promise.all(running.splice(0).map((s) => stopService(s, 'SIGKILL')));
    // Its first pass runs at start; the next would come a minute later.
    await start({ WEBHOOK_POLL_MS: '60000' });
    const writer = await start({ WEBHOOK_WORKER: 'false' });
    const auth = await setUp(writer, 'notified', '/notified');
    expect((await order(writer, auth, 'N-1')).status).toBe(201);
    await eventually(() => expect(receiver.at('/notified')).toHaveLength(1), 5_000);

    // The listening connection dies: the worker opens another and hears the next delivery too.
    const listeners = () =>
      withClient(db.url, async (c) =>
        (
          await c.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN webhook_due'`,
          )
        ).rows.map((row) => row.pid),
      );
    const [lost] = await listeners();
    await withClient(db.url, (c) => c.query('SELECT pg_terminate_backend($1)', [lost]));
    await eventually(async () => expect((await listeners()).filter((pid) => pid !== lost)).toHaveLength(1), 5_000);
    expect((await order(writer, auth, 'N-2')).status).toBe(201);
    await eventually(() => expect(receiver.at('/notified')).toHaveLength(2), 5_000);
  });
});
