import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { CarrierStub } from './support/carrier-stub';
import { eventually } from './support/eventually';
import { OtlpReceiver, SpanKind, type ReceivedSpan } from './support/otlp-receiver';
import {
  callService,
  SERVICE_ADMIN as ADMIN,
  serviceEnv,
  spawnService,
  stopService,
  waitForHealth,
  type ServiceProcess,
} from './support/service-process';
import { PAYMENT_SECRET, postSigned } from './support/signed';
import { SmtpSink } from './support/smtp-sink';
import { createTestDatabase, type TestDatabase } from './support/test-database';
import { WebhookReceiver } from './support/webhook-receiver';

const WEBHOOK = '/orders/integrations/partner/webhook';
const SECRETS_ENCRYPTION_KEY = 'ab'.repeat(32);
const CARRIER_TOKEN = 'carrier-token-for-traces';
const BUYER = { fullName: 'Ivanova Maria Petrovna', phone: '+79123456789', email: 'maria.ivanova@example.com' };
const STOREFRONT_BUYER = {
  fullName: 'Petrov Ivan Sergeevich',
  phone: '+79007654321',
  email: 'ivan.petrov@example.org',
};

/** A W3C traceparent's trace and span ids. */
function parseTraceparent(header: unknown): { traceId: string; spanId: string } {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(header));
  if (!match) throw new Error(`not a traceparent: ${String(header)}`);
  return { traceId: match[1], spanId: match[2] };
}

const randomHex = (bytes: number) =>
  Buffer.from(Array.from({ length: bytes }, () => (Math.random() * 256) | 0)).toString('hex');

/** Whether `span` is `ancestor` or lies under it. */
function descends(span: ReceivedSpan, ancestor: ReceivedSpan, byId: Map<string, ReceivedSpan>): boolean {
  for (let at: ReceivedSpan | undefined = span; at; at = byId.get(at.parentSpanId)) {
    if (at.spanId === ancestor.spanId) return true;
  }
  return false;
}

/** A brand with keys, a product and (optionally) a webhook endpoint, made through the service's API. */
async function setUpBrand(service: ServiceProcess, slug: string, hookUrl?: string) {
  const token = (await callService(service, 'POST', '/auth/login', ADMIN)).body.token as string;
  const admin = { Authorization: `Bearer ${token}` };
  const brand = (await callService(service, 'POST', '/admin/brands', { name: slug, slug }, admin)).body.id as number;
  const issue = async (permissions: string[]) => {
    const issued = await callService(
      service,
      'POST',
      `/admin/brands/${brand}/integration-keys`,
      { name: 'k', permissions },
      admin,
    );
    expect(issued.status).toBe(201);
    return { id: issued.body.id as number, key: issued.body.key as string };
  };
  const writer = await issue(['products.write']);
  const product = await callService(
    service,
    'POST',
    '/catalog/products',
    {
      name: 'Scarf',
      article: 'SC',
      storefrontArticle: 'SF-SC',
      priceKopeks: 10000,
      sizes: [{ name: 'One', stock: 50 }],
    },
    { Authorization: `Bearer ${writer.key}` },
  );
  expect(product.status).toBe(201);
  let webhookSecret = '';
  if (hookUrl) {
    const endpoint = await callService(
      service,
      'POST',
      `/admin/brands/${brand}/webhook-endpoints`,
      { url: hookUrl, eventTypes: ['order.created'] },
      admin,
    );
    expect(endpoint.status).toBe(201);
    webhookSecret = endpoint.body.secret as string;
  }
  return {
    token,
    brand,
    writer,
    storefront: await issue(['orders.create_partner']),
    sizeId: product.body.sizes[0].id as number,
    webhookSecret,
    issue,
  };
}

function storefrontOrder(
  service: ServiceProcess,
  key: string,
  partnerOrderId: string,
  headers: Record<string, string> = {},
) {
  return callService(
    service,
    'POST',
    WEBHOOK,
    { partnerOrderId, recipient: STOREFRONT_BUYER, items: [{ article: 'SF-SC', size: 'One', quantity: 1 }] },
    { Authorization: `Bearer ${key}`, ...headers },
  );
}

describe('traces (OTLP/HTTP)', () => {
  let db: TestDatabase;
  let otlp: OtlpReceiver;
  let otlpUrl: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    otlp = new OtlpReceiver();
    otlpUrl = await otlp.start();
  });
  afterAll(async () => {
    await otlp?.stop();
    await db?.drop();
  });

  describe('exported as JSON', () => {
    let service: ServiceProcess;
    let hooks: WebhookReceiver;
    let carrier: CarrierStub;
    let smtp: SmtpSink;
    let setUp: Awaited<ReturnType<typeof setUpBrand>>;
    const secrets: string[] = [];

    beforeAll(async () => {
      hooks = new WebhookReceiver();
      carrier = new CarrierStub({ token: CARRIER_TOKEN });
      smtp = new SmtpSink();
      const [, carrierUrl, smtpUrl] = await Promise.all([hooks.start(), carrier.start(), smtp.start()]);
      const env = await serviceEnv(db.url, {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        SECRETS_ENCRYPTION_KEY,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_POLL_MS: '100',
        PAYMENT_WEBHOOK_SECRET: PAYMENT_SECRET,
        CARRIER_API_URL: carrierUrl,
        CARRIER_API_TOKEN: CARRIER_TOKEN,
        SMTP_URL: smtpUrl,
        MAIL_FROM: 'Shop <shop@example.com>',
        OUTBOX_POLL_MS: '100',
      });
      service = spawnService(env);
      await waitForHealth(service);
      setUp = await setUpBrand(service, 'traced', hooks.url('/hook'));
      secrets.push(
        setUp.token,
        setUp.writer.key,
        setUp.storefront.key,
        setUp.webhookSecret,
        setUp.webhookSecret.slice('whsec_'.length),
        ADMIN.password,
        env.SESSION_SECRET,
        SECRETS_ENCRYPTION_KEY,
        CARRIER_TOKEN,
        PAYMENT_SECRET,
      );
    });
    afterAll(async () => {
      if (service) await stopService(service);
      await Promise.all([hooks?.stop(), carrier?.stop(), smtp?.stop()]);
    });

    it('a storefront order is one trace, continued from its traceparent: the server span and its SQL under it', async () => {
      const traceId = randomHex(16);
      const parentId = randomHex(8);
      const answer = await storefrontOrder(service, setUp.storefront.key, 'TR-1', {
        traceparent: `00-${traceId}-${parentId}-01`,
      });
      expect(answer.status).toBe(201);

      const { server, statements } = await eventually(() => {
        const spans = otlp.spans();
        const byId = new Map(spans.map((s) => [s.spanId, s]));
        const server = spans.find((s) => s.traceId === traceId && s.kind === SpanKind.SERVER);
        expect(server).toBeDefined();
        const statements = spans.filter(
          (s) => s.scope === '@opentelemetry/instrumentation-pg' && s.attributes['db.query.text'] !== undefined,
        );
        // A named prepared statement on a pipelined connection (PreparedStatements), not only TypeORM's pool.
        expect(statements.some((s) => /^pg\.query:[a-z_]+ /.test(s.name) && descends(s, server!, byId))).toBe(true);
        return { server: server!, statements: statements.filter((s) => s.traceId === traceId) };
      });
      expect(server.name).toBe(`POST ${WEBHOOK}`);
      expect(server.parentSpanId).toBe(parentId);
      expect(server.attributes).toMatchObject({
        'http.request.method': 'POST',
        'http.route': WEBHOOK,
        'http.response.status_code': 201,
      });
      const byId = new Map(otlp.spans().map((s) => [s.spanId, s]));
      expect(statements.length).toBeGreaterThan(0);
      for (const statement of statements) expect(descends(statement, server, byId)).toBe(true);
    });

    it('a request without a valid traceparent starts a trace of its own', async () => {
      const bad = `00-${'0'.repeat(32)}-${randomHex(8)}-01`;
      expect((await storefrontOrder(service, setUp.storefront.key, 'TR-2', { traceparent: bad })).status).toBe(201);
      const server = await eventually(() => {
        const found = otlp
          .spans()
          .filter((s) => s.kind === SpanKind.SERVER && s.name === `POST ${WEBHOOK}` && s.parentSpanId === '');
        expect(found.length).toBeGreaterThan(0);
        return found[0];
      });
      expect(server.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(server.traceId).not.toBe('0'.repeat(32));
    });

    it('a webhook delivery carries the traceparent of its exported client span; its signature still verifies', async () => {
      const orderTrace = randomHex(16);
      const traceparent = `00-${orderTrace}-${randomHex(8)}-01`;
      expect((await storefrontOrder(service, setUp.storefront.key, 'TR-3', { traceparent })).status).toBe(201);
      const message = await eventually(() => {
        const found = hooks.at('/hook').find((m) => m.json.data.partnerOrderId === 'TR-3');
        expect(found).toBeDefined();
        return found!;
      });
      const { traceId, spanId } = parseTraceparent(message.headers.traceparent);
      const client = await eventually(() => {
        const found = otlp.spans().find((s) => s.spanId === spanId);
        expect(found).toBeDefined();
        return found!;
      });
      expect(client).toMatchObject({ traceId, kind: SpanKind.CLIENT, scope: '@opentelemetry/instrumentation-http' });
      // The worker's, not part of the order's request: that answered long before (and would hold
      // every later round of the worker it woke).
      expect(client.parentSpanId).toBe('');
      expect(traceId).not.toBe(orderTrace);
      // Where it went, by origin only: a receiver's path or query may hold its own token.
      expect(client.attributes['url.full']).toBe(new URL(hooks.url('/hook')).origin);
      expect(
        new Webhook(setUp.webhookSecret).verify(message.body, {
          'webhook-id': String(message.headers['webhook-id']),
          'webhook-timestamp': String(message.headers['webhook-timestamp']),
          'webhook-signature': String(message.headers['webhook-signature']),
        }),
      ).toMatchObject({ type: 'order.created' });
    });

    it('a carrier call carries the traceparent of its exported client span', async () => {
      const clerk = await setUp.issue(['orders.write', 'orders.read']);
      secrets.push(clerk.key);
      const pending = await callService(
        service,
        'POST',
        '/orders/admin',
        {
          recipient: BUYER,
          items: [{ sizeId: setUp.sizeId, quantity: 1 }],
          delivery: { city: 'Kazan', pvzCode: 'KZN1', deliveryCostKopeks: 30000 },
        },
        { Authorization: `Bearer ${clerk.key}` },
      );
      expect(pending.status).toBe(201);
      const { orderNumber, totalKopeks } = pending.body.order as { orderNumber: string; totalKopeks: number };
      await postSigned(service.baseUrl, '/payments/webhook', PAYMENT_SECRET, {
        eventId: `evt-traces-${orderNumber}`,
        orderNumber,
        amountKopeks: totalKopeks,
        status: 'succeeded',
        paidAt: new Date().toISOString(),
      }).expect(200);
      const call = await eventually(() => {
        const found = carrier.calls.find((c) => c.idempotencyKey === orderNumber && c.status === 201);
        expect(found).toBeDefined();
        return found!;
      });
      const { traceId, spanId } = parseTraceparent(call.traceparent);
      const client = await eventually(() => {
        const found = otlp.spans().find((s) => s.spanId === spanId);
        expect(found).toBeDefined();
        return found!;
      });
      expect(client).toMatchObject({ traceId, kind: SpanKind.CLIENT, scope: '@opentelemetry/instrumentation-undici' });
    });

    it('sends its spans to <endpoint>/v1/traces, and none holds a key, token, secret or buyer data', async () => {
      // SIGTERM runs stopTracing, which sends every span still queued before the process exits:
      // all it will ever export has been received once it is gone.
      expect(await stopService(service)).toBe(0);
      expect(otlp.posts.length).toBeGreaterThan(0);
      expect(otlp.posts.every((p) => p.path === '/v1/traces' && p.contentType.startsWith('application/json'))).toBe(
        true,
      );
      const exported = otlp.jsonText();
      expect(exported).toContain('commerce-integration-layer');
      const buyers = [BUYER, STOREFRONT_BUYER].flatMap((b) => [
        b.fullName,
        b.fullName.split(' ')[0],
        b.phone,
        b.phone.slice(1),
        b.phone.slice(2),
        b.email,
      ]);
      for (const value of [...secrets, ...buyers]) {
        expect(value.length).toBeGreaterThan(5);
        expect({ value, found: exported.includes(value) }).toEqual({ value, found: false });
      }
    });
  });

  describe('exported as protobuf by default', () => {
    let service: ServiceProcess;

    beforeAll(async () => {
      otlp.posts.length = 0;
      service = spawnService(
        await serviceEnv(db.url, { OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl, OTEL_BSP_SCHEDULE_DELAY: '100' }),
      );
      await waitForHealth(service);
    });
    afterAll(async () => {
      if (service) await stopService(service);
    });

    it('posts application/x-protobuf to <endpoint>/v1/traces', async () => {
      expect((await callService(service, 'GET', '/health')).status).toBe(200);
      await eventually(() => expect(otlp.posts.length).toBeGreaterThan(0));
      for (const post of otlp.posts) {
        expect(post).toMatchObject({ path: '/v1/traces', contentType: 'application/x-protobuf' });
        expect(post.body.length).toBeGreaterThan(0);
      }
    });
  });

  describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    /** The OpenTelemetry modules loaded once the tracing entry (what main.ts imports first) has run. */
    function modulesLoadedByEntry(env: Record<string, string>): string[] {
      const entry = path.resolve(__dirname, '../dist/tracing/start-tracing.js');
      const script = `require(${JSON.stringify(entry)});
        const loaded = Object.keys(require.cache).filter((p) => /@opentelemetry|@fastify[\\\\/]otel/.test(p));
        process.stdout.write(JSON.stringify(loaded));
        process.exit(0);`;
      const run = spawnSync(process.execPath, ['-e', script], {
        env: { PATH: process.env.PATH ?? '', ...env },
        encoding: 'utf8',
      });
      expect(run.status).toBe(0);
      return JSON.parse(run.stdout) as string[];
    }

    it('loads no OpenTelemetry package at all (and loads the SDK when it is set)', () => {
      expect(modulesLoadedByEntry({})).toEqual([]);
      expect(modulesLoadedByEntry({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })).toEqual(
        expect.arrayContaining([expect.stringContaining('@opentelemetry/sdk-node')]),
      );
    });
  });
});

describe('request log lines', () => {
  let db: TestDatabase;
  let service: ServiceProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    service = spawnService(await serviceEnv(db.url, { LOG_LEVEL: 'info' }));
    await waitForHealth(service);
  });
  afterAll(async () => {
    if (service) await stopService(service);
    await db?.drop();
  });

  it('are JSON (standard output is no terminal); a keyed request’s line names the key’s id and brand, never the key', async () => {
    const setUp = await setUpBrand(service, 'logged');
    expect((await storefrontOrder(service, setUp.storefront.key, 'LOG-1')).status).toBe(201);
    const admin = { Authorization: `Bearer ${setUp.token}` };
    const site = await callService(
      service,
      'POST',
      `/admin/brands/${setUp.brand}/production-sites`,
      { name: 'W' },
      admin,
    );
    const siteKey = await callService(
      service,
      'POST',
      `/admin/brands/${setUp.brand}/production-sites/${site.body.id}/keys`,
      undefined,
      admin,
    );
    expect(siteKey.status).toBe(201);
    const siteAuth = { Authorization: `Bearer ${siteKey.body.key as string}` };
    expect((await callService(service, 'GET', '/production-api/me', undefined, siteAuth)).status).toBe(200);
    expect(
      (await callService(service, 'GET', '/auth/me', undefined, { Authorization: `Bearer ${setUp.token}` })).status,
    ).toBe(200);
    const lines = await eventually(() => {
      const parsed = service
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map(
          (line) =>
            JSON.parse(line) as { req?: { path: string }; res?: { statusCode: number } } & Record<string, unknown>,
        );
      const keyed = parsed.find((l) => l.req?.path === WEBHOOK && l.res?.statusCode === 201);
      const user = parsed.find((l) => l.req?.path === '/auth/me');
      const bySite = parsed.find((l) => l.req?.path === '/production-api/me');
      expect(keyed).toBeDefined();
      expect(user).toBeDefined();
      expect(bySite).toBeDefined();
      return { keyed: keyed!, user: user!, bySite: bySite! };
    });
    expect(lines.bySite).toMatchObject({ brandId: setUp.brand, keyId: siteKey.body.id, keyKind: 'site_key' });
    expect(lines.keyed).toMatchObject({
      brandId: setUp.brand,
      keyId: setUp.storefront.id,
      keyKind: 'integration_key',
    });
    expect(lines.user).not.toHaveProperty('keyId');
    for (const secret of [
      setUp.storefront.key,
      setUp.writer.key,
      setUp.token,
      siteKey.body.key,
      STOREFRONT_BUYER.phone,
    ]) {
      expect(service.output()).not.toContain(secret);
    }
  });
});
