import { execFileSync, spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { callService, freePort, stopService, waitForHealth, type ServiceProcess } from './support/service-process';

const REPO = path.resolve(__dirname, '..');
const ADMIN = { email: 'owner@example.com', password: 'first-start-phrase-1' };

/** Runs a command in a folder with only the given environment; its exit code and output. */
function run(
  cwd: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** What `npm start` runs, from inside the clone: no DATABASE_URL, DATA_DIR the default ./data. */
function startInClone(clone: string, port: number): ServiceProcess {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: clone,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: '/tmp',
      PORT: String(port),
      HOST: '127.0.0.1',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      ...(process.env.HTTP_ADAPTER ? { HTTP_ADAPTER: process.env.HTTP_ADAPTER } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, baseUrl: `http://127.0.0.1:${port}`, output: () => output, exited };
}

/**
 * A newcomer clones into a folder only they can enter (`/root/…`, any `mktemp -d`) and starts the
 * service or the tests on the embedded database. As root the embedded server runs as the
 * `postgres` user, who cannot enter that folder: its binaries run from a copy and its cluster
 * lives under /var/lib, linked from DATA_DIR/postgres. As anyone else nothing of that is needed.
 */
describe('first start from a clone in a folder only its owner can enter', () => {
  const parent = mkdtempSync(path.join(tmpdir(), 'cil-private-'));
  const clone = path.join(parent, 'project');
  const asRoot = process.getuid?.() === 0;
  const asRootOnly = asRoot ? it : it.skip;
  let running: ServiceProcess | undefined;

  beforeAll(() => {
    expect(statSync(parent).mode & 0o777).toBe(0o700);
    execFileSync('git', ['clone', '-q', REPO, clone]);
    // What `npm ci` and the build would put there; hard links, so the binaries are inside the folder.
    execFileSync('cp', ['-al', path.join(REPO, 'node_modules'), path.join(clone, 'node_modules')]);
    execFileSync('cp', ['-r', path.join(REPO, 'dist'), path.join(clone, 'dist')]);
  });
  afterAll(async () => {
    if (running) await stopService(running);
    // As root the cluster lives outside the clone; it goes with it.
    const link = path.join(clone, 'data', 'postgres');
    if (lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink()) {
      rmSync(path.dirname(readlinkSync(link)), { recursive: true, force: true });
    }
    rmSync(parent, { recursive: true, force: true });
  });

  it('the service starts healthy on its embedded database and keeps its data across a restart', async () => {
    running = startInClone(clone, await freePort());
    await waitForHealth(running);
    const login = await callService(running, 'POST', '/auth/login', ADMIN);
    expect(login.status).toBe(200);
    const auth = { Authorization: `Bearer ${login.body.token as string}` };
    const created = await callService(running, 'POST', '/admin/brands', { name: 'Kept', slug: 'kept' }, auth);
    expect(created.status).toBe(201);
    expect(await stopService(running)).toBe(0);

    running = startInClone(clone, await freePort());
    await waitForHealth(running);
    const brands = await callService(running, 'GET', '/admin/brands', undefined, auth);
    expect(brands.body.items.map((b: { slug: string }) => b.slug)).toEqual(['kept']);
  });

  asRootOnly(
    'as root: the cluster lives under /var/lib, ./data/postgres links there and the log says so (skipped unless the tests run as root)',
    () => {
      const link = path.join(clone, 'data', 'postgres');
      const cluster = readlinkSync(link);
      expect(cluster).toMatch(/^\/var\/lib\/commerce-integration-layer\/[^/]+\/postgres$/);
      expect(statSync(cluster).uid).not.toBe(0);
      expect(running!.output()).toContain(`the embedded database's files are in ${cluster} (${link} links there)`);
    },
  );

  asRootOnly(
    'as root: a database another user made in a folder the postgres user cannot enter stops the start with one line (skipped unless the tests run as root)',
    async () => {
      const dataDir = path.join(parent, 'made-by-someone');
      mkdirSync(path.join(dataDir, 'postgres'), { recursive: true });
      const { code, output } = await run(clone, ['dist/main.js'], { PORT: '0', DATA_DIR: dataDir });
      expect(code).toBe(1);
      expect(output.trim().split('\n')).toHaveLength(1);
      expect(output).toContain(`cannot enter ${parent} (mode 700) above ${dataDir}`);
      expect(output).toMatch(/DATABASE_URL/);
    },
  );

  asRootOnly(
    'as root: the tests’ global setup starts and stops the embedded test database (skipped unless the tests run as root)',
    async () => {
      const script = `
      const setup = await import('./test/global-setup.mjs');
      await setup.default();
      const { Client } = require('pg');
      const client = new Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      const { rows } = await client.query('SELECT 1 AS one');
      await client.end();
      await (await import('./test/global-teardown.mjs')).default();
      console.log('answered', rows[0].one);
      process.exit(0);`;
      const { code, output } = await run(clone, ['-e', `(async () => {${script}})()`], {});
      expect(output.trim().split('\n').pop()).toBe('answered 1');
      expect(code).toBe(0);
    },
  );
});
