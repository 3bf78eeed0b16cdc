import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, spawnService, stopService, waitForHealth, type ServiceProcess } from './support/service-process';

const ADMIN = { email: 'owner@example.com', password: 'service-process-phrase-1' };

async function call(
  service: ServiceProcess,
  method: string,
  url: string,
  options: { token?: string; body?: unknown } = {},
) {
  const response = await fetch(`${service.baseUrl}${url}`, {
    method,
    headers: {
      'Content-Type': 'application/json',
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** `npm start` as a newcomer runs it: no DATABASE_URL, the embedded database under DATA_DIR. */
describe('the service process on its embedded default database', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cil-service-'));
  let port: number;
  let env: Record<string, string>;
  let running: ServiceProcess | undefined;

  beforeAll(async () => {
    port = await freePort();
    env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
    };
  });
  afterAll(async () => {
    if (running) await stopService(running);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts, serves /health, and keeps users, brands and sessions across a restart', async () => {
    running = spawnService(env);
    await waitForHealth(running);
    const login = await call(running, 'POST', '/auth/login', { body: ADMIN });
    expect(login.status).toBe(200);
    const token = login.body.token as string;
    expect(
      (await call(running, 'POST', '/admin/brands', { token, body: { name: 'Persisted', slug: 'persisted' } })).status,
    ).toBe(201);
    expect(await call(running, 'GET', '/auth/me', { token })).toMatchObject({ status: 200 });
    expect(await stopService(running)).toBe(0);
    // Requests were logged (method, path, status) but never a password or a token.
    expect(running.output()).toContain('"path":"/auth/me"');
    expect(running.output()).not.toContain(ADMIN.password);
    expect(running.output()).not.toContain(token);
    expect(running.output()).not.toContain(token.split('.')[2]);

    running = spawnService(env);
    await waitForHealth(running);
    expect((await call(running, 'GET', '/auth/me', { token })).status).toBe(200);
    const brands = await call(running, 'GET', '/admin/brands', { token });
    expect(brands.body.items.map((b: { slug: string }) => b.slug)).toEqual(['persisted']);
    const users = await call(running, 'GET', '/admin/users', { token });
    expect(users.body.items.filter((u: { isSuperadmin: boolean }) => u.isSuperadmin)).toHaveLength(1);
  });

  it('refuses a second process on the same data folder instead of stopping the first one’s database', async () => {
    const second = spawnService({ ...env, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/in use by process \d+; set DATABASE_URL/);
    expect((await call(running!, 'GET', '/health')).status).toBe(200);
  });

  it('recovers after the service was killed with SIGKILL (its postgres left running)', async () => {
    await stopService(running!, 'SIGKILL');
    running = spawnService(env);
    await waitForHealth(running);
    expect((await call(running, 'POST', '/auth/login', { body: ADMIN })).status).toBe(200);
  });
});

describe('configuration errors', () => {
  it.each([
    [{ PORT: 'eighty' }, 'Invalid configuration: PORT must be an integer between 0 and 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'Invalid configuration: DATABASE_URL must be a postgres:// URL'],
    [{ MIGRATIONS_RUN: 'maybe' }, 'Invalid configuration: MIGRATIONS_RUN must be true or false'],
    [{ SESSION_SECRET: 'short' }, 'Invalid configuration: SESSION_SECRET must be at least 32 characters'],
    // The first superadministrator's password is held to the rule of every password (contract §19;
    // its other parts: src/config/environment.spec.ts).
    [
      { BOOTSTRAP_ADMIN_EMAIL: 'owner@shop.example', BOOTSTRAP_ADMIN_PASSWORD: 'owner-password-1' },
      'Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD must not contain the local part of BOOTSTRAP_ADMIN_EMAIL',
    ],
  ])('%p stops the start with one line naming the variable', async (bad, line) => {
    const service = spawnService({ PORT: '0', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cil-bad-')), ...bad });
    expect(await service.exited).toBe(1);
    expect(service.output().trim()).toBe(line);
  });
});
