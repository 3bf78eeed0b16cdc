import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { DEFAULT_DATABASE_POOL_SIZE } from '../src/config/environment';
import { settle } from './database';
import { run, WARMUP, type NextRequest, type ScenarioResult } from './load';
import { stopService } from './service-process';

/**
 * The same key-checked read on a bare node:http + pg server (bench/reference-server.ts) with the
 * service's statements, on the same database, right after the service stopped: the yardstick of
 * the "≥ 60 % of a bare implementation", measured on the machine as it is this minute.
 */
export async function measureReference(url: string, next: NextRequest): Promise<ScenarioResult> {
  const port = 3990 + Math.floor(Math.random() * 9);
  const server = await startReferenceServer(
    url,
    port,
    Number(process.env.DATABASE_POOL_SIZE ?? DEFAULT_DATABASE_POOL_SIZE),
  );
  try {
    const base = `http://127.0.0.1:${port}`;
    await settle(url);
    // The service had warmed up its JIT and its connections before admin_list; so does the reference.
    if (WARMUP > 0) await run(base, 'reference warmup', next, WARMUP);
    return await run(base, 'admin_list_reference', next);
  } finally {
    await stopService(server);
  }
}

/** bench/reference-server.ts on `port`, listening once this resolves. */
export async function startReferenceServer(databaseUrl: string, port: number, poolSize: number): Promise<ChildProcess> {
  const server = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', path.resolve(__dirname, 'reference-server.ts')],
    {
      env: {
        ...process.env,
        REFERENCE_DATABASE_URL: databaseUrl,
        REFERENCE_PORT: String(port),
        REFERENCE_POOL_SIZE: String(poolSize),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('message', () => resolve());
    server.once('exit', (code) => reject(new Error(`the reference server exited (${code})`)));
  });
  return server;
}

export function share(service: ScenarioResult, reference: ScenarioResult): number {
  return Math.round((100 * service.reqPerSec) / reference.reqPerSec) / 100;
}
