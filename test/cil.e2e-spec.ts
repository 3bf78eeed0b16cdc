import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { eventually } from './support/eventually';
import { issueKey } from './support/fixtures';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { WebhookReceiver } from './support/webhook-receiver';

const CLIENT = path.join(__dirname, '../packages/client');
const CIL = path.join(CLIENT, 'dist/cli.js');
const SECRET = `whsec_${Buffer.from('cil-test-secret-of-32-bytes-ok!!').toString('base64')}`;

/**
 * The `cil` command of the client package (contract §20), run as a process against the service:
 * `listen` forwards each event as a signed Standard Webhooks message, resumes after a kill from its
 * cursor file without repeats or gaps, and a wrong key or URL ends it with one line; `tail` prints
 * the events as JSON lines.
 */
describe('the cil command', () => {
  let s: Suite;
  let baseUrl: string;
  let receiver: WebhookReceiver;
  let key: string;
  let products: string;
  let folder: string;
  let made = 0;
  const running: ChildProcess[] = [];

  const cil = (args: string[], env: Record<string, string> = {}) => {
    const child = spawn(process.execPath, [CIL, ...args], {
      env: { PATH: process.env.PATH ?? '', CIL_API_KEY: key, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { child, exited, out: () => out, err: () => err };
  };
  const product = () =>
    request(s.t.http)
      .post('/catalog/products')
      .set({ Authorization: `Bearer ${products}` })
      .send({ name: `P${++made}`, article: `CIL-${made}`, priceKopeks: 100 })
      .expect(201);
  const following = (run: { err: () => string }) =>
    eventually(() => expect(run.err()).toContain('cil: following product.* from'));
  const forwarded = () => receiver.at('/events').map((m) => m.json.data.article as string);

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, [
      path.join(__dirname, '../node_modules/typescript/bin/tsc'),
      '-p',
      CLIENT,
    ]);
    s = await openSuite();
    const server = await s.t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    receiver = new WebhookReceiver();
    await receiver.start();
    const brand = await s.fx.brand();
    key = (await issueKey(s.fx, brand, { permissions: ['products.read'] })).key;
    products = (await issueKey(s.fx, brand, { permissions: ['products.write'] })).key;
    folder = mkdtempSync(path.join(tmpdir(), 'cil-e2e-'));
  });
  afterAll(async () => {
    for (const child of running) child.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
    await receiver?.stop();
    await closeSuite(s);
  });

  it('ends with one line naming the problem on a wrong key or an unreachable URL', async () => {
    const wrongKey = cil(['listen', '--url', baseUrl, '--forward-to', receiver.url('/events')], {
      CIL_API_KEY: 'csh_at_wrong',
    });
    expect(await wrongKey.exited).toBe(1);
    expect(wrongKey.err()).toMatch(/^cil: the service refused the key in CIL_API_KEY \(401 .+\)\n$/);
    const nowhere = cil(['tail', '--url', 'http://127.0.0.1:9']);
    expect(await nowhere.exited).toBe(1);
    expect(nowhere.err()).toMatch(/^cil: could not reach the service.*\n$/);
  });

  it('forwards each event once, signed, and resumes after a kill from its cursor file', async () => {
    const cursor = path.join(folder, 'cursor.json');
    const args = ['listen', '--url', baseUrl, '--forward-to', receiver.url('/events'), '--types', 'product.*'];
    const first = cil([...args, '--cursor-file', cursor, '--secret', SECRET]);
    // It starts at the events committed after it starts: it says when it knows where that is.
    await following(first);
    for (let i = 0; i < 3; i++) await product();
    await eventually(() => expect(forwarded()).toEqual(['CIL-1', 'CIL-2', 'CIL-3']));
    await eventually(() => expect(first.out().split('\n').filter(Boolean)).toHaveLength(3));
    expect(first.out()).toMatch(/ product\.created \d+ → 200\n/);
    first.child.kill('SIGKILL');
    await first.exited;

    for (let i = 0; i < 2; i++) await product();
    const second = cil([...args, '--cursor-file', cursor, '--secret', SECRET]);
    await eventually(() => expect(forwarded()).toEqual(['CIL-1', 'CIL-2', 'CIL-3', 'CIL-4', 'CIL-5']));
    const verifier = new Webhook(SECRET);
    for (const message of receiver.at('/events')) {
      const headers = Object.fromEntries(
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(message.headers[h])]),
      );
      expect(verifier.verify(message.body, headers)).toMatchObject({ type: 'product.created' });
    }
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const otherTypes = cil([
      'listen',
      '--url',
      baseUrl,
      '--forward-to',
      receiver.url('/events'),
      '--cursor-file',
      cursor,
    ]);
    expect(await otherTypes.exited).toBe(1);
    expect(otherTypes.err()).toBe(
      `cil: ${cursor} was written for --types product.*: start with those, or another file\n`,
    );
  });

  it('retries a failed forward (1 s, doubling, 5 times), then exits naming the event', async () => {
    receiver.answer('/down', 500);
    const listen = cil(['listen', '--url', baseUrl, '--forward-to', receiver.url('/down'), '--types', 'product.*']);
    await following(listen);
    const created = await product();
    const started = Date.now();
    expect(await listen.exited).toBe(1);
    // 1 + 2 + 4 + 8 + 16 s between the six tries.
    expect(Date.now() - started).toBeGreaterThanOrEqual(31_000);
    expect(receiver.at('/down')).toHaveLength(6);
    const [event] = receiver.at('/down').map((m) => m.headers['webhook-id']);
    expect(event).toMatch(/^msg_cil_\d+$/);
    expect(listen.err().split('\n').at(-2)).toBe(
      `cil: event ${String(event).slice('msg_cil_'.length)} (product.created) could not be forwarded to ${receiver.url('/down')}: 500, 5 retries`,
    );
    expect(created.status).toBe(201);
  });

  it('tails the events as JSON lines, forwarding nothing', async () => {
    const tail = cil(['tail', '--url', baseUrl, '--types', 'product.*']);
    await following(tail);
    await product();
    await eventually(() => expect(tail.out()).toContain('\n'));
    const line = JSON.parse(tail.out().split('\n')[0]) as { type: string; data: { article: string } };
    expect(line).toMatchObject({ type: 'product.created', data: { article: `CIL-${made}` } });
    tail.child.kill('SIGTERM');
    expect(await tail.exited).toBe(0);
  });
});
