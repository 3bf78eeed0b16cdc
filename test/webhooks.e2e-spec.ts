import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher';
import { createProduct, issueKey, journal, type IssuedKey } from './support/fixtures';
import { countRows } from './support/stock-probe';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { bearer } from './support/test-app';
import { withClient } from './support/test-database';
import { WebhookReceiver } from './support/webhook-receiver';

let seq = 0;
const SECRETS_KEY = 'ab'.repeat(32);

/**
 * Outbound webhooks (contract §10) against a real receiver. The worker is driven by hand
 * (WEBHOOK_WORKER=false): `deliverDue` runs one pass and waits for its sends. The worker of instances
 * configured otherwise (private addresses, another secrets key, the concurrency, the pruning) and the
 * endpoint's share: test/medium/webhook-dispatcher.medium-spec.ts.
 */
describe('webhook endpoints and deliveries', () => {
  let suite: Suite;
  let receiver: WebhookReceiver;
  let brand: number;
  let otherBrand: number;
  let storefront: IssuedKey;
  let admin: Record<string, string>;

  const http = () => suite.t.http;
  const dbUrl = () => suite.db.url;
  const endpointsPath = () => `/admin/brands/${brand}/webhook-endpoints`;

  async function deliverDue() {
    const dispatcher = suite.t.app.get(WebhookDispatcher);
    await dispatcher.runOnce();
    await dispatcher.drain();
  }

  /** Makes every pending delivery due now (instead of waiting out the retry schedule). */
  const makeDue = () =>
    withClient(dbUrl(), (c) =>
      c.query(`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE status = 'pending'`),
    );

  async function endpoint(path: string, eventTypes: string[] = ['*'], extra: object = {}) {
    const response = await request(http())
      .post(endpointsPath())
      .set(admin)
      .send({ url: receiver.url(path), eventTypes, ...extra })
      .expect(201);
    return response.body as { id: number; secret: string; url: string };
  }

  async function storefrontOrder() {
    const response = await request(http())
      .post('/orders/integrations/partner/webhook')
      .set(storefront.headers)
      .send({
        partnerOrderId: `WH-${++seq}`,
        recipient: { fullName: 'Fedorova Olga', phone: '+79005550000' },
        items: [{ article: 'SF-HAT', size: 'One', quantity: 1 }],
      })
      .expect(201);
    return response.body.order as { id: number; orderNumber: string; totalKopeks: number };
  }

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    suite = await openSuite({
      env: {
        WEBHOOK_WORKER: 'false',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        SECRETS_ENCRYPTION_KEY: SECRETS_KEY,
        WEBHOOK_TIMEOUT_MS: '1500',
        WEBHOOK_RETRY_SCHEDULE: '1,1',
        WEBHOOK_DISABLE_AFTER_SECONDS: '3600',
        OUTBOX_WORKER: 'false',
      },
    });
    admin = bearer(suite.fx.admin);
    brand = await suite.fx.brand();
    otherBrand = await suite.fx.brand();
    storefront = await issueKey(suite.fx, brand, { permissions: ['orders.create_partner'] });
    await createProduct(suite.fx, brand, {
      article: 'HAT',
      storefrontArticle: 'SF-HAT',
      priceKopeks: 20000,
      sizes: [{ name: 'One', stock: 1000 }],
    });
  });
  afterAll(async () => {
    await closeSuite(suite);
    await receiver?.stop();
  });

  it('creates, reads, changes and deletes endpoints; the secret is sealed at rest and never journaled', async () => {
    const created = await endpoint('/crud', ['order.paid', 'order.paid'], { description: ' ERP ' });
    expect(created).toMatchObject({
      url: receiver.url('/crud'),
      eventTypes: ['order.paid'],
      description: 'ERP',
      enabled: true,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await request(http()).get(endpointsPath()).set(admin).expect(200);
    expect(list.body.items.find((e: { id: number }) => e.id === created.id)).not.toHaveProperty('secret');
    const one = await request(http()).get(`${endpointsPath()}/${created.id}`).set(admin).expect(200);
    expect(one.body).toEqual({ ...created, secret: undefined, createdAt: one.body.createdAt });
    const secret = await request(http()).get(`${endpointsPath()}/${created.id}/secret`).set(admin).expect(200);
    expect(secret.body).toEqual({ secret: created.secret });

    const patched = await request(http())
      .patch(`${endpointsPath()}/${created.id}`)
      .set(admin)
      .send({ eventTypes: ['*'], enabled: false })
      .expect(200);
    expect(patched.body).toMatchObject({ eventTypes: ['*'], enabled: false, description: 'ERP' });
    await request(http()).patch(`${endpointsPath()}/${created.id}`).set(admin).send({ enabled: null }).expect(400);

    const dump = await withClient(dbUrl(), async (c) =>
      JSON.stringify((await c.query('SELECT * FROM webhook_endpoints')).rows),
    );
    expect(dump).not.toContain('whsec_');
    expect(dump).not.toContain(created.secret.slice(6, 30));

    await request(http()).delete(`${endpointsPath()}/${created.id}`).set(admin).expect(204);
    await request(http()).get(`${endpointsPath()}/${created.id}`).set(admin).expect(404);
    const entries = (await journal(suite.fx)).filter((e) => String(e.type).startsWith('webhook_endpoint_'));
    expect(entries.map((e) => e.type)).toEqual(
      expect.arrayContaining(['webhook_endpoint_created', 'webhook_endpoint_updated', 'webhook_endpoint_deleted']),
    );
    expect(JSON.stringify(entries)).not.toContain('whsec_');
  });

  it("refuses another brand's endpoint (403, journaled) and bad input (400)", async () => {
    const created = await endpoint('/isolation');
    const other = await suite.fx.member(otherBrand, ['settings.manage']);
    const denied = await request(http())
      .get(`/admin/brands/${otherBrand}/webhook-endpoints/${created.id}`)
      .set(bearer(other))
      .expect(403);
    expect(denied.body.error).toBe('Forbidden: brand not allowed');
    for (const body of [
      { url: 'ftp://example.com/x', eventTypes: ['*'] },
      { url: 'not a url', eventTypes: ['*'] },
      { url: receiver.url('/x'), eventTypes: [] },
      { url: receiver.url('/x'), eventTypes: ['order.eaten'] },
      { url: receiver.url('/x') },
    ]) {
      const response = await request(http()).post(endpointsPath()).set(admin).send(body).expect(400);
      expect(response.body.details.length).toBeGreaterThan(0);
    }
    // A name that resolves to no address is refused even where private ones are allowed; the private
    // addresses an instance refuses: test/medium/webhook-dispatcher.medium-spec.ts.
    const unresolved = await request(http())
      .post(endpointsPath())
      .set(admin)
      .send({ url: 'http://hook.invalid/x', eventTypes: ['*'] })
      .expect(400);
    expect(unresolved.body.error).toMatch(/^url is refused: /);
  });

  it('delivers an order event signed as Standard Webhooks, verified by the standardwebhooks package', async () => {
    const created = await endpoint('/signed', ['order.created']);
    const order = await storefrontOrder();
    await deliverDue();
    const [message] = receiver.at('/signed');
    expect(message.headers['content-type']).toBe('application/json');
    expect(message.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(Number(message.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    const verified = new Webhook(created.secret).verify(message.body, {
      'webhook-id': String(message.headers['webhook-id']),
      'webhook-timestamp': String(message.headers['webhook-timestamp']),
      'webhook-signature': String(message.headers['webhook-signature']),
    });
    expect(verified).toEqual({
      type: 'order.created',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: {
        orderId: order.id,
        orderNumber: order.orderNumber,
        partnerOrderId: `WH-${seq}`,
        source: 'storefront',
        status: 'paid',
        paymentStatus: 'paid',
        deliveryStatus: null,
        carrierTrackingNumber: null,
        totalKopeks: order.totalKopeks,
        sequence: 1,
      },
    });
    const deliveries = await request(http()).get(`${endpointsPath()}/${created.id}/deliveries`).set(admin).expect(200);
    expect(deliveries.body.items[0]).toMatchObject({
      messageId: message.headers['webhook-id'],
      eventType: 'order.created',
      status: 'succeeded',
      nextAttemptAt: null,
      attempts: [{ responseStatus: 200, error: null, durationMs: expect.any(Number), at: expect.any(String) }],
    });
  });

  it('sends each endpoint only the types it subscribed to; "*" gets all, numbered per order', async () => {
    const paidOnly = await endpoint('/paid-only', ['order.paid']);
    await endpoint('/everything', ['*']);
    const before = receiver.at('/everything').length;
    const order = await storefrontOrder();
    await request(http())
      .post(`/orders/admin/${order.id}/cancel`)
      .set((await issueKey(suite.fx, brand, { permissions: ['orders.write'] })).headers)
      .send({})
      .expect(200);
    await deliverDue();
    const all = receiver
      .at('/everything')
      .slice(before)
      .filter((m) => m.json.type.startsWith('order.') && m.json.data.orderId === order.id);
    expect(all.map((m) => [m.json.type, m.json.data.sequence])).toEqual([
      ['order.created', 1],
      ['order.cancelled', 2],
    ]);
    expect(receiver.at('/paid-only')).toEqual([]);
    await request(http()).delete(`${endpointsPath()}/${paidOnly.id}`).set(admin).expect(204);
  });

  it('retries failures with one webhook-id until a 2xx, and keeps every attempt', async () => {
    const created = await endpoint('/flaky', ['order.created']);
    receiver.answer('/flaky', 500, { status: 302, headers: { location: receiver.url('/elsewhere') } }, 204);
    await storefrontOrder();
    await deliverDue();
    await makeDue();
    await deliverDue();
    await makeDue();
    await deliverDue();
    const ids = receiver.at('/flaky').map((m) => m.headers['webhook-id']);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
    expect(receiver.at('/elsewhere')).toEqual([]);
    const deliveries = await request(http()).get(`${endpointsPath()}/${created.id}/deliveries`).set(admin);
    expect(deliveries.body.items[0]).toMatchObject({
      status: 'succeeded',
      attempts: [
        { responseStatus: 500, error: 'answered 500' },
        { responseStatus: 302, error: 'answered 302 (redirects are not followed)' },
        { responseStatus: 204, error: null },
      ],
    });
  });

  it('marks a message failed after the last retry, and a retry by hand sends it again with its id', async () => {
    const created = await endpoint('/down', ['order.created']);
    receiver.answer('/down', 503);
    await storefrontOrder();
    for (let i = 0; i < 4; i++) {
      await deliverDue();
      await makeDue();
    }
    expect(receiver.at('/down')).toHaveLength(3);
    const failed = await request(http())
      .get(`${endpointsPath()}/${created.id}/deliveries?status=failed`)
      .set(admin)
      .expect(200);
    expect(failed.body.items).toHaveLength(1);
    expect(failed.body.items[0].attempts).toHaveLength(3);
    receiver.answer('/down', 200);
    const messageId = failed.body.items[0].messageId as string;
    await request(http()).post(`${endpointsPath()}/${created.id}/deliveries/${messageId}/retry`).set(admin).expect(202);
    await deliverDue();
    expect(receiver.at('/down').at(-1)!.headers['webhook-id']).toBe(messageId);
    // Sent again once it succeeded: each success stays in its history, in order.
    await request(http()).post(`${endpointsPath()}/${created.id}/deliveries/${messageId}/retry`).set(admin).expect(202);
    await deliverDue();
    expect(receiver.at('/down')).toHaveLength(5);
    const history = await request(http()).get(`${endpointsPath()}/${created.id}/deliveries`).set(admin).expect(200);
    expect(history.body.items[0]).toMatchObject({ messageId, status: 'succeeded', nextAttemptAt: null });
    expect(history.body.items[0].attempts.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([
      503, 503, 503, 200, 200,
    ]);
    await request(http())
      .post(`${endpointsPath()}/${created.id}/deliveries/msg_00000000000000000000000000000000/retry`)
      .set(admin)
      .expect(404);
    await request(http()).post(`${endpointsPath()}/${created.id}/deliveries/nope/retry`).set(admin).expect(400);
  });

  it('signs with both secrets during a rotation, the new one first, then with the new one alone', async () => {
    const created = await endpoint('/rotating', ['webhook.test']);
    const rotated = await request(http())
      .post(`${endpointsPath()}/${created.id}/rotate-secret`)
      .set(admin)
      .send({ oldSecretExpiresInSeconds: 3600 })
      .expect(200);
    expect(rotated.body.secret).not.toBe(created.secret);
    const test = await request(http()).post(`${endpointsPath()}/${created.id}/test`).set(admin).expect(202);
    expect(test.body.messageId).toMatch(/^msg_/);
    await deliverDue();
    const [during] = receiver.at('/rotating');
    expect(during.json).toMatchObject({ type: 'webhook.test', data: { endpointId: created.id } });
    const signatures = String(during.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    const headers = (m: typeof during) => ({
      'webhook-id': String(m.headers['webhook-id']),
      'webhook-timestamp': String(m.headers['webhook-timestamp']),
      'webhook-signature': String(m.headers['webhook-signature']),
    });
    expect(new Webhook(rotated.body.secret).verify(during.body, headers(during))).toBeTruthy();
    expect(new Webhook(created.secret).verify(during.body, headers(during))).toBeTruthy();
    const newOnly = { ...headers(during), 'webhook-signature': signatures[0] };
    expect(new Webhook(rotated.body.secret).verify(during.body, newOnly)).toBeTruthy();

    await request(http())
      .post(`${endpointsPath()}/${created.id}/rotate-secret`)
      .set(admin)
      .send({ oldSecretExpiresInSeconds: 0 })
      .expect(200)
      .then(async (again) => {
        await request(http()).post(`${endpointsPath()}/${created.id}/test`).set(admin).expect(202);
        await deliverDue();
        const after = receiver.at('/rotating').at(-1)!;
        expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
        expect(new Webhook(again.body.secret).verify(after.body, headers(after))).toBeTruthy();
        expect(() => new Webhook(rotated.body.secret).verify(after.body, headers(after))).toThrow();
      });
    await request(http())
      .post(`${endpointsPath()}/${created.id}/rotate-secret`)
      .set(admin)
      .send({ oldSecretExpiresInSeconds: 604801 })
      .expect(400);
    const entries = await journal(suite.fx);
    expect(entries.filter((e) => e.type === 'webhook_endpoint_secret_rotated').length).toBeGreaterThanOrEqual(2);
  });

  it('forgets a failing spell at the first success, so a recovered endpoint is not disabled later', async () => {
    const created = await endpoint('/recovers', ['order.created']);
    receiver.answer('/recovers', 500, 200);
    await storefrontOrder();
    await deliverDue();
    const failingSince = () =>
      withClient(dbUrl(), async (c) => {
        const rows = await c.query(`SELECT failing_since FROM webhook_endpoints WHERE id = $1`, [created.id]);
        return rows.rows[0].failing_since as Date | null;
      });
    expect(await failingSince()).not.toBeNull();
    await makeDue();
    await deliverDue();
    expect(receiver.at('/recovers')).toHaveLength(2);
    expect(await failingSince()).toBeNull();
  });

  it('records a success whose answer holds a NUL character, and the successes written with it', async () => {
    const odd = await endpoint('/nul-answer', ['order.created']);
    const plain = await endpoint('/plain-answer', ['order.created']);
    receiver.answer('/nul-answer', { status: 200, body: 'ok\u0000done' });
    await storefrontOrder();
    await deliverDue();
    for (const { id, path } of [
      { id: odd.id, path: '/nul-answer' },
      { id: plain.id, path: '/plain-answer' },
    ]) {
      expect(receiver.at(path)).toHaveLength(1);
      const page = await request(http()).get(`${endpointsPath()}/${id}/deliveries`).set(admin).expect(200);
      expect(page.body.items[0]).toMatchObject({ status: 'succeeded', attempts: [{ responseStatus: 200 }] });
    }
    const kept = await withClient(dbUrl(), async (c) => {
      const rows = await c.query(`SELECT success_body FROM webhook_deliveries WHERE endpoint_id = $1`, [odd.id]);
      return rows.rows[0].success_body as string;
    });
    expect(kept).toBe('okdone');
  });

  it('keeps a success when the delivery is sent again and then fails', async () => {
    const created = await endpoint('/relapses', ['order.created']);
    receiver.answer('/relapses', 200, 503);
    await storefrontOrder();
    await deliverDue();
    const [delivered] = receiver.at('/relapses');
    const messageId = String(delivered.headers['webhook-id']);
    await request(http()).post(`${endpointsPath()}/${created.id}/deliveries/${messageId}/retry`).set(admin).expect(202);
    await deliverDue();
    const page = await request(http()).get(`${endpointsPath()}/${created.id}/deliveries`).set(admin).expect(200);
    expect(page.body.items[0]).toMatchObject({ messageId, status: 'pending', nextAttemptAt: expect.any(String) });
    expect(page.body.items[0].attempts).toMatchObject([
      { responseStatus: 200, error: null },
      { responseStatus: 503, error: 'answered 503' },
    ]);
    // The table keeps a kept success whole, and only on a delivery it settled.
    await withClient(dbUrl(), async (c) => {
      const refused = (sql: string) =>
        c.query(sql, [created.id]).then(
          () => 'written',
          (error: { code?: string }) => error.code,
        );
      expect(
        await refused(`UPDATE webhook_deliveries SET succeeded_at = now(), success_status = 200, success_duration_ms = 1
                        WHERE endpoint_id = $1`),
      ).toBe('23514');
      expect(await refused(`UPDATE webhook_deliveries SET success_status = 200 WHERE endpoint_id = $1`)).toBe('23514');
    });
  });

  it('disables an endpoint failing for too long (journal, staff mail) and attempts nothing more until enabled', async () => {
    const created = await endpoint('/dying', ['order.created']);
    receiver.answer('/dying', 500);
    await storefrontOrder();
    await deliverDue();
    await withClient(dbUrl(), (c) =>
      c.query(`UPDATE webhook_endpoints SET failing_since = now() - interval '2 hours' WHERE id = $1`, [created.id]),
    );
    await makeDue();
    await deliverDue();
    const state = await request(http()).get(`${endpointsPath()}/${created.id}`).set(admin).expect(200);
    expect(state.body.enabled).toBe(false);
    const entry = (await journal(suite.fx)).find((e) => e.type === 'webhook_endpoint_disabled');
    expect(entry).toMatchObject({ brandId: brand, details: { endpointId: created.id } });
    expect(await countRows(dbUrl(), 'outbox', `kind = 'mail.staff_webhook_disabled'`)).toBe(1);

    const attempts = receiver.at('/dying').length;
    await storefrontOrder();
    await makeDue();
    await deliverDue();
    expect(receiver.at('/dying')).toHaveLength(attempts);
    receiver.answer('/dying', 200);
    await request(http()).patch(`${endpointsPath()}/${created.id}`).set(admin).send({ enabled: true }).expect(200);
    await makeDue();
    await deliverDue();
    expect(receiver.at('/dying').length).toBeGreaterThan(attempts);
  });

  it('a receiver that hangs holds only its own share: another endpoint gets its message meanwhile', async () => {
    await endpoint('/hangs', ['order.created']);
    await endpoint('/quick', ['order.created']);
    receiver.answer('/hangs', 'hang');
    const order = await storefrontOrder();
    const dispatcher = suite.t.app.get(WebhookDispatcher);
    await dispatcher.runOnce();
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 1000;
      const check = () => {
        if (receiver.at('/quick').some((m) => m.json.data.orderId === order.id)) return resolve();
        if (Date.now() > deadline) return reject(new Error('/quick got nothing while /hangs hung'));
        setTimeout(check, 20);
      };
      check();
    });
    expect(receiver.at('/hangs').some((m) => m.json.data.orderId === order.id)).toBe(true);
    await dispatcher.drain();
    receiver.answer('/hangs', 200);
    receiver.release();
    const hung = await withClient(
      dbUrl(),
      async (c) =>
        (
          await c.query(
            `SELECT a.error FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
             JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE w.url LIKE '%/hangs' ORDER BY a.id DESC LIMIT 1`,
          )
        ).rows[0],
    );
    expect(hung.error).toMatch(/no answer within 1500 ms/);
  });

  it("records a brand's order events with no endpoint, and its first endpoint hears its very next order", async () => {
    const key = await issueKey(suite.fx, otherBrand, { permissions: ['orders.create_partner'] });
    await createProduct(suite.fx, otherBrand, {
      article: 'CAP',
      storefrontArticle: 'SF-CAP',
      priceKopeks: 1000,
      sizes: [{ name: 'One', stock: 100 }],
    });
    const path = `/admin/brands/${otherBrand}/webhook-endpoints`;
    const placeOrder = async () =>
      (
        await request(http())
          .post('/orders/integrations/partner/webhook')
          .set(key.headers)
          .send({
            partnerOrderId: `LN-${++seq}`,
            recipient: { fullName: 'Petrova Anna', phone: '+79005550001' },
            items: [{ article: 'SF-CAP', size: 'One', quantity: 1 }],
          })
          .expect(201)
      ).body.order as { id: number };
    const events = () => countRows(dbUrl(), 'domain_events', 'brand_id = $1', [otherBrand]);
    const orders = () => countRows(dbUrl(), 'orders', 'brand_id = $1', [otherBrand]);

    const orderEvents = () =>
      countRows(dbUrl(), 'domain_events', `brand_id = $1 AND type = 'order.created'`, [otherBrand]);
    const messages = () => countRows(dbUrl(), 'webhook_messages', 'brand_id = $1', [otherBrand]);

    // Every event is recorded for the events API (§16), listened to or not: the order's and its size's.
    await placeOrder();
    expect(await orderEvents()).toBe(1);
    expect(await events()).toBe(2 + 2); // product.created and the initial stock, then the order's two
    expect(await messages()).toBe(0);
    const late = (
      await request(http())
        .post(path)
        .set(admin)
        .send({ url: receiver.url('/late'), eventTypes: ['order.created'] })
        .expect(201)
    ).body as { id: number };
    const heard = await placeOrder();
    expect(await orderEvents()).toBe(2);
    expect(await orders()).toBe(2);
    expect(await messages()).toBe(1);
    await deliverDue();
    expect(receiver.at('/late').map((m) => m.json.data.orderId)).toEqual([heard.id]);

    await request(http()).delete(`${path}/${late.id}`).set(admin).expect(204);
    await placeOrder();
    await placeOrder();
    expect(await orderEvents()).toBe(4);
    expect(await orders()).toBe(4);
    expect(await messages()).toBe(1);
  });

  it('sends nothing for a change that rolled back', async () => {
    await endpoint('/rollback', ['*']);
    const messages = await countRows(dbUrl(), 'webhook_messages');
    await request(http())
      .post('/orders/integrations/partner/webhook')
      .set(storefront.headers)
      .send({
        partnerOrderId: `WH-RB-${++seq}`,
        recipient: { fullName: 'Nobody', phone: '+79000000000' },
        items: [{ article: 'NO-SUCH', size: 'One', quantity: 1 }],
      })
      .expect(422);
    expect(await countRows(dbUrl(), 'webhook_messages')).toBe(messages);
  });
});
