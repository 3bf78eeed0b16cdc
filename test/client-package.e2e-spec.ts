import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { ApiError, createClient, verifyWebhook, type Client } from '../packages/client/src';
import { issueKey } from './support/fixtures';
import { closeSuite, openSuite, type Suite } from './support/suite';

const CLIENT = path.join(__dirname, '../packages/client');
const TYPES = path.join(CLIENT, 'src/api-types.ts');

/**
 * The client package (contract §20) driven against the real service over HTTP: a storefront's
 * whole job, failures as ApiErrors, retries that reuse their Idempotency-Key, the events
 * iterator resuming exactly, verifyWebhook against the library's own signing; and its generated
 * types in step with the document the service serves (UPDATE_CLIENT_TYPES=1 writes them anew).
 */
describe('the client package against the service', () => {
  let s: Suite;
  let baseUrl: string;
  let client: Client;

  beforeAll(async () => {
    s = await openSuite({ env: { RATE_LIMIT_PER_SECOND: '1000', RATE_LIMIT_BURST: '1000' } });
    const server = await s.t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const brand = await s.fx.brand();
    client = createClient({ baseUrl, apiKey: (await issueKey(s.fx, brand, { fullAccess: true })).key, backoffMs: 50 });
  });
  afterAll(() => closeSuite(s));

  it('has types generated from the document the service serves', async () => {
    const document = (await request(s.t.http).get('/docs-json').expect(200)).body;
    const folder = mkdtempSync(path.join(tmpdir(), 'cil-client-types-'));
    try {
      writeFileSync(path.join(folder, 'openapi.json'), JSON.stringify(document));
      execFileSync(
        process.execPath,
        [path.join(__dirname, '../node_modules/openapi-typescript/bin/cli.js'), 'openapi.json', '-o', 'api-types.ts'],
        { cwd: folder, stdio: 'pipe' },
      );
      const fresh = readFileSync(path.join(folder, 'api-types.ts'), 'utf8');
      if (process.env.UPDATE_CLIENT_TYPES === '1') writeFileSync(TYPES, fresh);
      // Run `npm run client:types` after changing what the document says.
      expect(readFileSync(TYPES, 'utf8')).toBe(fresh);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("does a storefront's job: a product, an order, its lookup, the list", async () => {
    const product = await client.catalog.createProduct({
      name: 'Linen shirt',
      article: 'CL-1',
      storefrontArticle: 'SF-CL-1',
      priceKopeks: 250_000,
      sizes: [{ name: 'M', stock: 5 }],
    });
    expect(product.sizes[0].stock).toBe(5);
    const body = {
      partnerOrderId: 'CL-ORDER-1',
      recipient: { fullName: 'Ivanova Maria', phone: '+79120000000' },
      items: [{ article: 'SF-CL-1', size: 'M', quantity: 2 }],
    };
    expect((await client.storefront.preflight(body)).lines?.[0]).toBeDefined();
    const accepted = await client.storefront.webhook(body);
    const order = await client.orders.get(accepted.order.id);
    expect(order.items[0].quantity).toBe(2);
    const listed = await client.orders.list({ partnerOrderId: 'CL-ORDER-1' });
    expect(listed.items.map((o) => o.id)).toEqual([accepted.order.id]);
  });

  it('throws an ApiError with the status, the error, its details and the request id', async () => {
    const refused = await client.catalog.createProduct({ name: '', article: 'X', priceKopeks: 1 }).catch((e) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, requestId: expect.any(String) });
    expect(refused.details.length).toBeGreaterThan(0);
    const missing = await client.orders.get(2_000_000_000).catch((e) => e);
    expect(missing).toMatchObject({ status: 404, error: 'Not found' });
  });

  it('sends an Idempotency-Key on a POST and retries a 5xx and a lost answer with the same key', async () => {
    const seen: Array<{ key: string | null; status: number | 'lost' }> = [];
    let calls = 0;
    const flaky = createClient({
      baseUrl,
      apiKey: (await issueKey(s.fx, await s.fx.brand(), { fullAccess: true })).key,
      backoffMs: 10,
      fetch: async (input, init) => {
        const sent = new Request(input, init);
        calls += 1;
        const response = await fetch(sent);
        const outcome = calls === 1 ? 'lost' : calls === 2 ? 503 : response.status;
        seen.push({ key: sent.headers.get('idempotency-key'), status: outcome });
        if (outcome === 'lost') throw new TypeError('fetch failed');
        if (outcome === 503) return new Response('{"error":"Service unavailable"}', { status: 503 });
        return response;
      },
    });
    const made = await flaky.catalog.createProduct({ name: 'Scarf', article: 'CL-R', priceKopeks: 100 });
    expect(seen.map((x) => x.status)).toEqual(['lost', 503, 201]);
    expect(new Set(seen.map((x) => x.key)).size).toBe(1);
    expect(seen[0].key).toMatch(/^[0-9a-f-]{36}$/);
    // The first attempt had created the product: the retries got its answer, not a second one.
    expect((await flaky.catalog.listProducts()).items.map((p) => p.id)).toEqual([made.id]);
  });

  it('iterates the events in order, and resumes from an event it handled without repeating or skipping', async () => {
    const brand = await s.fx.brand();
    const key = (await issueKey(s.fx, brand, { fullAccess: true })).key;
    const own = createClient({ baseUrl, apiKey: key });
    for (const n of [1, 2, 3]) await own.catalog.createProduct({ name: `P${n}`, article: `EV-${n}`, priceKopeks: 100 });
    const read: string[] = [];
    let kept: { after?: string; skip: number } = { skip: 0 };
    for await (const event of own.events.iterate({ types: ['product.*'], waitSeconds: 0 })) {
      read.push(`${event.type} ${(event.data as { article: string }).article}`);
      kept = event.position;
      if (read.length === 2) break;
    }
    await own.catalog.createProduct({ name: 'P4', article: 'EV-4', priceKopeks: 100 });
    const stop = new AbortController();
    for await (const event of own.events.iterate({
      types: ['product.*'],
      ...kept,
      waitSeconds: 1,
      signal: stop.signal,
    })) {
      read.push(`${event.type} ${(event.data as { article: string }).article}`);
      if (read.length === 4) stop.abort();
    }
    expect(read).toEqual([
      'product.created EV-1',
      'product.created EV-2',
      'product.created EV-3',
      'product.created EV-4',
    ]);
  });

  it('verifies a Standard Webhooks message signed by the library itself, and refuses a changed one', () => {
    const secret = `whsec_${Buffer.from('a-test-secret-of-32-bytes-long!!').toString('base64')}`;
    const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: {} });
    const id = 'msg_0123456789abcdef0123456789abcdef';
    const at = new Date();
    const signature = new Webhook(secret).sign(id, at, body);
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    };
    expect(verifyWebhook(body, headers, secret).type).toBe('webhook.test');
    expect(() => verifyWebhook(body.replace('test', 'tost'), headers, secret)).toThrow();
    expect(() => verifyWebhook(body, { ...headers, 'webhook-signature': 'v1,AAAA' }, secret)).toThrow();
  });
});
