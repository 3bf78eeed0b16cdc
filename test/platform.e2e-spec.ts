import type { Server } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import request from 'supertest';
import { REQUEST_TIMEOUT_MS } from '../src/setup-app';
import { createTestDatabase, type TestDatabase } from './support/test-database';
import { ProbeModule } from './support/probe.module';
import { startTestApp, testPlatform, type TestApp } from './support/test-app';

/** The ports of the servers listening in this process. */
function listeningPorts(): number[] {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles
    .filter((handle): handle is NetServer => handle instanceof NetServer && handle.listening)
    .map((server) => (server.address() as AddressInfo).port);
}

describe('platform conventions', () => {
  let db: TestDatabase;
  let t: TestApp;
  let portsOpenedByStart: number[];

  beforeAll(async () => {
    db = await createTestDatabase();
    const listening = listeningPorts();
    t = await startTestApp({ databaseUrl: db.url, imports: [ProbeModule] });
    portsOpenedByStart = listeningPorts().filter((port) => !listening.includes(port));
  });
  afterAll(async () => {
    // The last test has dropped the database under the app.
    await t?.close().catch(() => undefined);
    await db?.drop();
  });

  it('runs on the HTTP platform the run names (npm run test:express: Express), with the same answers', async () => {
    expect(t.app.getHttpAdapter().getType()).toBe(process.env.HTTP_ADAPTER === 'express' ? 'express' : 'fastify');
    expect(testPlatform()).toBe(t.app.getHttpAdapter().getType());
    const response = await request(t.http).get('/health').expect(200);
    // Neither platform adds headers of its own that the other lacks.
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers.etag).toBeUndefined();
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('gives a client Node’s 300 s to send a whole request on both platforms, then 408', () => {
    expect((t.app.getHttpServer() as Server).requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    expect(REQUEST_TIMEOUT_MS).toBe(300_000);
  });

  it('without METRICS_PORT a start opens no port of its own: no metrics server', () => {
    expect(portsOpenedByStart).toEqual([]);
  });

  it('sends no Strict-Transport-Security while SESSION_COOKIE_SECURE is false (plain HTTP in development)', async () => {
    const page = await request(t.http).get('/dashboard/').expect(200);
    const script = /src="(assets\/[^"]+\.js)"/.exec(page.text)![1];
    for (const path of ['/dashboard', '/dashboard/', `/dashboard/${script}`, '/health']) {
      const response = await request(t.http).get(path);
      expect({ path, hsts: response.headers['strict-transport-security'] }).toEqual({ path, hsts: undefined });
    }
  });

  // No PAYMENT_WEBHOOK_SECRET nor CARRIER_WEBHOOK_SECRET here: nothing can be signed for them.
  it.each(['/payments/webhook', '/carrier/webhook'])(
    '%s without its secret configured → 401 Invalid signature',
    async (path) => {
      const response = await request(t.http).post(path).set('webhook-signature', 'v1,AAAA').send({}).expect(401);
      expect(response.body.error).toBe('Invalid signature');
    },
  );

  it('GET /health answers 200 {status: "ok"} once the database answers', async () => {
    const response = await request(t.http).get('/health').expect(200);
    expect(response.body.status).toBe('ok');
  });

  it('unknown routes get 404 Not found with a request id', async () => {
    const response = await request(t.http).get('/no/such/route').expect(404);
    expect(response.body).toEqual({ error: 'Not found', requestId: expect.any(String) });
    expect(response.headers['x-request-id']).toBe(response.body.requestId);
  });

  it('keeps a plain X-Request-Id from the caller and replaces an unsafe one', async () => {
    const kept = await request(t.http).get('/nowhere').set('X-Request-Id', 'trace-42.a_b').expect(404);
    expect(kept.body.requestId).toBe('trace-42.a_b');
    const replaced = await request(t.http).get('/nowhere').set('X-Request-Id', 'bad id\twith spaces').expect(404);
    expect(replaced.body.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('malformed JSON gets 400 Malformed JSON body', async () => {
    const response = await request(t.http)
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .send('{"email": "a@b.c", ')
      .expect(400);
    expect(response.body).toEqual({
      error: 'Malformed JSON body',
      details: ['body is not valid JSON'],
      requestId: expect.any(String),
    });
  });

  it('a JSON body with a __proto__ key, at any depth, is refused with a 400 that names it', async () => {
    const response = await request(t.http)
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .send('{"email": "a@b.c", "password": "x", "__proto__": {"isSuperadmin": true}}')
      .expect(400);
    expect(response.body.details).toEqual(['body must not contain the key "__proto__"']);
    const nested = await request(t.http)
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .send('{"email": "a@b.c", "password": {"__proto__": {}}}')
      .expect(400);
    expect(nested.body.error).toBe('body must not contain the key "__proto__"');
  });

  it('a body that is not JSON gets 415, and an empty JSON body reads as {} (then validated)', async () => {
    const text = await request(t.http)
      .post('/auth/login')
      .set('Content-Type', 'text/plain')
      .send('email=a@b.c')
      .expect(415);
    expect(text.body).toEqual({
      error: 'Unsupported media type: send application/json',
      requestId: expect.any(String),
    });
    const empty = await request(t.http)
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .send('')
      .expect(400);
    expect(empty.body.details).toEqual(['email must be a string', 'password must be a string']);
  });

  it('a body in a Content-Encoding the service cannot read is a 4xx with the error body', async () => {
    const response = await request(t.http)
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'x-unknown')
      .send('{"email":"a@b.example","password":"x"}');
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.body).toEqual(
      expect.objectContaining({ error: expect.any(String), requestId: expect.any(String) }),
    );
  });

  it('a body over 1 MiB gets 413 Payload too large', async () => {
    const body = JSON.stringify({ email: 'a'.repeat(1024 * 1024 + 10), password: 'x' });
    const response = await request(t.http)
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .send(body)
      .expect(413);
    expect(response.body.error).toBe('Payload too large');
  });

  it('a body just under 1 MiB is read (and then validated)', async () => {
    const body = JSON.stringify({ email: 'a'.repeat(1024 * 1024 - 100), password: 'x' });
    const response = await request(t.http)
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .send(body)
      .expect(400);
    expect(response.body.error).toBe('email must be shorter than or equal to 254 characters');
  });

  it('validation errors list every problem in details, the first as error', async () => {
    const response = await request(t.http).post('/auth/login').send({ email: 5 }).expect(400);
    expect(response.body.details).toEqual(['email must be a string', 'password must be a string']);
    expect(response.body.error).toBe('email must be a string');
  });

  it('a JSON body that is not an object is a 400, not a 500', async () => {
    const response = await request(t.http)
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .send('[1,2]')
      .expect(400);
    expect(typeof response.body.error).toBe('string');
  });

  it('an unexpected failure is a 500 Internal server error that leaks nothing of its cause', async () => {
    const response = await request(t.http).get('/probe/crash').expect(500);
    expect(response.body).toEqual({ error: 'Internal server error', requestId: expect.any(String) });
    expect(JSON.stringify(response.body)).not.toContain('db-internal');
  });

  it('serves the OpenAPI document at /docs with the auth requirements of each route', async () => {
    const response = await request(t.http).get('/docs-json').expect(200);
    const putMember = response.body.paths['/admin/brands/{brandId}/members/{userId}'].put;
    expect(putMember.responses['403'].description).toContain('Forbidden: Missing permission settings.manage');
    // A public route says it needs no credential: the empty requirement.
    expect(response.body.paths['/auth/login'].post.security).toEqual([{}]);
    await request(t.http).get('/docs').expect(200);
  });

  // Last: it drops the suite's database under the running app.
  it('GET /health answers 503 when the database is gone', async () => {
    await request(t.http).get('/health').expect(200);
    await db.drop();
    const response = await request(t.http).get('/health').expect(503);
    expect(response.body.error).toBe('Service unavailable');
  });
});
