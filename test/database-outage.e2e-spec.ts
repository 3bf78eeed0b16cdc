import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { eventually } from './support/eventually';
import { createProduct, Fixtures, issueKey } from './support/fixtures';
import { freePort } from './support/service-process';
import { withClient } from './support/test-database';
import { startTestApp, type TestApp } from './support/test-app';

/** The database going away: 503 at once (no hang, no crash), and recovery without a restart. */
describe('database outage', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cil-outage-'));
  let port: number;
  let server: ChildProcess | undefined;
  let t: TestApp;

  async function startPostgres(): Promise<void> {
    const child = spawn(process.execPath, [path.resolve(__dirname, 'support/pg-process.mjs'), dir, String(port)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      child.once('exit', (code) => reject(new Error(`postgres helper exited with ${code}`)));
    });
    server = child;
  }
  async function stopPostgres(): Promise<void> {
    const child = server!;
    server = undefined;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  beforeAll(async () => {
    chmodSync(dir, 0o755);
    port = await freePort();
    await startPostgres();
    const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
    await withClient(url, (c) => c.query('CREATE DATABASE outage'));
    t = await startTestApp({ databaseUrl: `postgres://postgres:postgres@127.0.0.1:${port}/outage` });
  });
  afterAll(async () => {
    await t?.close().catch(() => undefined);
    if (server) await stopPostgres();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 Service unavailable while the database is down, and recovers by itself', async () => {
    const fx = await Fixtures.create(t.http);
    const brand = await fx.brand();
    const key = await issueKey(fx, brand, { permissions: ['orders.read'] });
    await request(t.http).get('/orders/admin/all?limit=1').set(key.headers).expect(200);
    await createProduct(fx, brand, {
      article: 'OUT-1',
      storefrontArticle: 'SF-OUT',
      priceKopeks: 100,
      sizes: [{ name: 'S' }],
    });
    const storefront = await issueKey(fx, brand, { permissions: ['orders.create_partner'] });
    const order = {
      partnerOrderId: 'OUTAGE-1',
      recipient: { fullName: 'A B', phone: '+79120000000' },
      items: [{ article: 'SF-OUT', size: 'S', quantity: 1 }],
    };
    const placeOrder = () =>
      request(t.http).post('/orders/integrations/partner/webhook').set(storefront.headers).send(order);

    await stopPostgres();
    for (const call of [
      () => request(t.http).get('/health'),
      () => request(t.http).get('/orders/admin/all?limit=1').set(key.headers),
      placeOrder,
      () => request(t.http).post('/auth/login').send({ email: 'x@example.com', password: 'whatever-1' }),
    ]) {
      const started = Date.now();
      const response = await call();
      expect(response.status).toBe(503);
      expect(response.body.error).toBe('Service unavailable');
      expect(Date.now() - started).toBeLessThan(7000);
    }

    await startPostgres();
    await eventually(() => request(t.http).get('/health').expect(200), 20_000, 250);
    await eventually(() => request(t.http).get('/orders/admin/all?limit=1').set(key.headers).expect(200), 20_000, 250);
    await eventually(() => placeOrder().expect(201), 20_000, 250);
  });
});
