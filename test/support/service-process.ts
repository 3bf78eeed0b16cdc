import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { countBoot } from './boot-count';

const DIST = path.resolve(__dirname, '../../dist');

/** The administrator a service started with serviceEnv creates on its first start. */
export const SERVICE_ADMIN = { email: 'owner@example.com', password: 'service-admin-phrase-1' };

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
  exited: Promise<number | null>;
}

/**
 * What a suite's service process runs with: its own port on the loopback and data folder, the
 * suite's database, a session secret every instance shares, and SERVICE_ADMIN; `env` adds or overrides.
 */
export async function serviceEnv(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<Record<string, string>> {
  return {
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cil-service-')),
    SESSION_SECRET: 'service-process-secret-0123456789abcdef',
    BOOTSTRAP_ADMIN_EMAIL: SERVICE_ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: SERVICE_ADMIN.password,
    ...env,
  };
}

/**
 * The built service as a real process (what `npm start` runs; `cluster.js` for `npm run
 * start:cluster`), with only the given environment.
 */
export function spawnService(env: Record<string, string>, entry: 'main.js' | 'cluster.js' = 'main.js'): ServiceProcess {
  const script = path.join(DIST, entry);
  if (!existsSync(script)) throw new Error(`${script} is missing: run npm run build first (npm test does)`);
  countBoot('process');
  let output = '';
  const child = spawn(process.execPath, [script], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: 'warn',
      // The run's HTTP platform (npm run test:express), unless the suite names one.
      ...(process.env.HTTP_ADAPTER ? { HTTP_ADAPTER: process.env.HTTP_ADAPTER } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, baseUrl: `http://127.0.0.1:${env.PORT}`, output: () => output, exited };
}

export async function waitForHealth(service: ServiceProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) throw new Error(`service exited early:\n${service.output()}`);
    try {
      const response = await fetch(`${service.baseUrl}/health`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`service not healthy within ${timeoutMs} ms:\n${service.output()}`);
}

export async function stopService(service: ServiceProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (service.child.exitCode !== null) return service.child.exitCode;
  service.child.kill(signal);
  return service.exited;
}

/** Below the kernel's ephemeral ports (32768 up), from which every `listen(0)` of the run draws. */
const PORT_BLOCKS_FROM = 20_000;
const PORT_BLOCK_SIZE = 1_000;
let portsHandedOut = 0;

/**
 * A port free now for a server a suite starts later (a service process, its metrics). A port the
 * kernel chose could be handed to another worker's `listen(0)` before the service binds it; these
 * come from below that range, in a block of their own for each jest worker.
 */
export async function freePort(): Promise<number> {
  const block = PORT_BLOCKS_FROM + (Number(process.env.JEST_WORKER_ID ?? 1) % 10) * PORT_BLOCK_SIZE;
  for (let tries = 0; tries < PORT_BLOCK_SIZE; tries++) {
    const port = block + (portsHandedOut++ % PORT_BLOCK_SIZE);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${block}–${block + PORT_BLOCK_SIZE - 1}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A JSON request to a service process; the status and the parsed answer. */
export async function callService(
  service: Pick<ServiceProcess, 'baseUrl'>,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${service.baseUrl}${url}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}
