import { Client } from 'pg';
import type { BrandContext } from '../../src/common/context/request-context';
import { IdentityModule } from '../../src/identity/identity.module';
import { OrdersService } from '../../src/orders/admin/orders.service';
import { OrdersModule } from '../../src/orders/orders.module';
import { WebhookEndpointsService } from '../../src/webhooks/webhook-endpoints.service';
import { WebhooksModule } from '../../src/webhooks/webhooks.module';
import { eventually } from '../support/eventually';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumBrand, mediumProduct, mediumStorefrontOrder, superadminContext } from '../support/medium-fixtures';
import { createTestDatabase, withClient, type TestDatabase } from '../support/test-database';
import { WebhookReceiver } from '../support/webhook-receiver';

const ENV = {
  SECRETS_ENCRYPTION_KEY: 'cd'.repeat(32),
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  // The shortest poll the configuration allows; the tests of "at once" set the longest instead.
  WEBHOOK_POLL_MS: '20',
};
/** Its first pass runs at start; the next would come a minute later. */
const POLLS_A_MINUTE_LATER = { WEBHOOK_POLL_MS: '60000' };

/**
 * Webhook delivery by several instances on one database (contract §10): they share the deliveries,
 * and a delivery is started at once, by the writer's own worker, or by another instance's when the
 * writer runs none or has no room, without waiting for a poll. An event committed just before its
 * instance was killed: webhooks-instances.e2e-spec.ts.
 */
describe('webhook delivery across instances', () => {
  let db: TestDatabase;
  let receiver: WebhookReceiver;
  let running: MediumSuite[] = [];

  async function start(extra: Record<string, string> = {}): Promise<MediumSuite> {
    const instance = await openMedium([IdentityModule, OrdersModule, WebhooksModule], {
      env: { ...ENV, ...extra },
      db,
    });
    running.push(instance);
    return instance;
  }

  /** A brand with a product on sale and an endpoint for `eventTypes` at `path`, made on `on`. */
  async function setUp(on: MediumSuite, path: string, eventTypes = ['order.created']) {
    const ctx = await superadminContext(on, await mediumBrand(on));
    await mediumProduct(on, ctx, {
      name: 'Scarf',
      article: 'SC',
      storefrontArticle: 'SF-SC',
      priceKopeks: 100,
      sizes: [{ name: 'One' }],
    });
    const endpoint = await on.get(WebhookEndpointsService).create(ctx, { url: receiver.url(path), eventTypes });
    return { ctx, endpointId: endpoint.id };
  }

  const order = (on: MediumSuite, ctx: BrandContext, partnerOrderId: string) =>
    mediumStorefrontOrder(on, ctx, { partnerOrderId, article: 'SF-SC', size: 'One' });

  beforeAll(async () => {
    db = await createTestDatabase();
    receiver = new WebhookReceiver();
    await receiver.start();
  });
  afterEach(async () => {
    // Answered first, so that no instance's shutdown waits on a send left hanging.
    receiver.release();
    for (const instance of running.reverse()) await instance.close();
    running = [];
  });
  afterAll(async () => {
    await receiver?.stop();
    await db?.drop();
  });

  it('three instances share the deliveries: every message arrives, none twice', async () => {
    const instances = [await start(), await start(), await start()];
    const { ctx } = await setUp(instances[0], '/shared');
    const placed = await Promise.all(Array.from({ length: 60 }, (_, i) => order(instances[i % 3], ctx, `S-${i}`)));
    expect(new Set(placed.map((created) => created.id)).size).toBe(60);
    const ids = await eventually(() => {
      const got = receiver.at('/shared').map((m) => String(m.headers['webhook-id']));
      expect(new Set(got).size).toBe(60);
      return got;
    }, 30_000);
    expect(ids.length - new Set(ids).size).toBe(0);
    expect(new Set(receiver.at('/shared').map((m) => m.json.data.partnerOrderId)).size).toBe(60);
  });

  it("a writer running a worker starts on its own orders' deliveries at once, without notifying the other instances", async () => {
    const instance = await start(POLLS_A_MINUTE_LATER);
    const { ctx } = await setUp(instance, '/own', ['order.created', 'order.cancelled']);
    const heard: string[] = [];
    const listener = new Client({ connectionString: db.url });
    await listener.connect();
    try {
      listener.on('notification', (message) => heard.push(message.channel));
      await listener.query('LISTEN webhook_due');
      // The storefront's statement commits by itself; a cancellation commits a transaction.
      const created = await order(instance, ctx, 'O-1');
      await order(instance, ctx, 'O-2');
      await eventually(() => expect(receiver.at('/own')).toHaveLength(2), 5_000);
      await instance.get(OrdersService).cancel(ctx, created.id, null);
      await eventually(() => expect(receiver.at('/own').map((m) => m.json.type)).toContain('order.cancelled'), 5_000);
      // A NOTIFY would have arrived with the commit, before the delivery it announced.
      expect(heard).toEqual([]);
    } finally {
      await listener.end();
    }
  });

  it('a test message and a retry are sent at once by the instance that took them, not at its next poll', async () => {
    const instance = await start(POLLS_A_MINUTE_LATER);
    const { ctx, endpointId } = await setUp(instance, '/manual');
    const endpoints = instance.get(WebhookEndpointsService);
    const { messageId } = await endpoints.sendTest(ctx, endpointId);
    await eventually(() => expect(receiver.at('/manual').map((m) => m.json.type)).toEqual(['webhook.test']), 5_000);
    await endpoints.retry(ctx, endpointId, messageId);
    await eventually(() => expect(receiver.at('/manual')).toHaveLength(2), 5_000);
    expect(receiver.at('/manual').map((m) => m.headers['webhook-id'])).toEqual([messageId, messageId]);
  });

  it('a writer whose worker has no room notifies the other instances, whose worker starts at once', async () => {
    const writer = await start({ ...POLLS_A_MINUTE_LATER, WEBHOOK_CONCURRENCY: '1', WEBHOOK_TIMEOUT_MS: '20000' });
    await start(POLLS_A_MINUTE_LATER);
    const { ctx } = await setUp(writer, '/full');
    receiver.answer('/full', 'hang');
    // The writer's worker takes the first order's delivery itself, and its one slot stays taken.
    await order(writer, ctx, 'F-1');
    await eventually(() => expect(receiver.at('/full')).toHaveLength(1), 5_000);
    await order(writer, ctx, 'F-2');
    await eventually(() => expect(receiver.at('/full')).toHaveLength(2), 5_000);
    expect(new Set(receiver.at('/full').map((m) => m.json.data.partnerOrderId))).toEqual(new Set(['F-1', 'F-2']));
  });

  it('a worker starts on a delivery another instance committed at once, not at its next poll, after a lost connection too', async () => {
    await start(POLLS_A_MINUTE_LATER);
    const writer = await start({ WEBHOOK_WORKER: 'false' });
    const { ctx } = await setUp(writer, '/notified');
    await order(writer, ctx, 'N-1');
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
    await order(writer, ctx, 'N-2');
    await eventually(() => expect(receiver.at('/notified')).toHaveLength(2), 5_000);
  });
});
