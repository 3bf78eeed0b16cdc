/**
 * npm run bench:catalog-import
 * One catalog import of 10 000 lines, the heaviest kind: 10 000 new products of one size each (so
 * 10 000 product events, the brand's webhook endpoint subscribed to them), timed from
 * request to answer; then its export, and that export imported again (every line unchanged); then
 * small imports that each change one product (so one product event each), the common case, whose
 * time is most of all the JIT's when PostgreSQL compiles the event statement (PERF-24, PERF-31).
 * The report names the server's JIT setting and whether its LLVM provider loads.
 * Not a load test: requests one after another, on the built service on a fresh database.
 */
import { Client } from 'pg';
import { freshDatabase } from './database';
import { startService, stopService, waitHealthy } from './service-process';
import { adminToken, api } from './workload';

const PRODUCTS = 10_000;
const SIZES = ['M'];
const SMALL_IMPORTS = 20;

async function jitOf(url: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ jit: string; available: boolean; above: string }>(
      `SELECT current_setting('jit') AS jit, pg_jit_available() AS available,
              current_setting('jit_above_cost') AS above`,
    );
    const { jit, available, above } = rows[0];
    return `jit=${jit}, ${available ? 'LLVM JIT available' : 'no JIT provider'}, jit_above_cost=${above}`;
  } finally {
    await client.end();
  }
}

async function call(base: string, method: string, url: string, token: string, body?: string, type?: string) {
  const started = performance.now();
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(type ? { 'content-type': type } : {}) },
    body,
  });
  const text = await response.text();
  const ms = Math.round(performance.now() - started);
  if (response.status >= 300) throw new Error(`${method} ${url} → ${response.status} ${text.slice(0, 500)}`);
  return { text, ms };
}

async function main(): Promise<void> {
  const { url, cleanup } = await freshDatabase();
  const port = 3900 + Math.floor(Math.random() * 90);
  const service = startService(url, port);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(base, service);
    const admin = await adminToken(base);
    const brand = (await api(base, 'POST', '/admin/brands', admin, { name: 'Import', slug: 'import' })).id as number;
    await api(base, 'POST', `/admin/brands/${brand}/webhook-endpoints`, admin, {
      url: 'http://127.0.0.1:9/products',
      eventTypes: ['product.created', 'product.updated'],
    });
    const key = (
      await api(base, 'POST', `/admin/brands/${brand}/integration-keys`, admin, {
        name: 'bench import',
        permissions: ['products.write', 'products.read'],
      })
    ).key as string;

    const lines = ['article,name,storefrontArticle,priceKopeks,size,sizePriceKopeks'];
    for (let p = 0; p < PRODUCTS; p++) {
      const article = `IMP-${String(p).padStart(5, '0')}`;
      SIZES.forEach((size, i) =>
        lines.push(
          i === 0
            ? `${article},"Product ${p}, cotton",SF-${p},${10_000 + p},${size},`
            : `${article},,,,${size},${12_000 + i}`,
        ),
      );
    }
    const file = `${lines.join('\r\n')}\r\n`;
    const created = await call(base, 'POST', '/catalog/products/import', key, file, 'text/csv');
    const exported = await call(base, 'GET', '/catalog/products/export', key);
    const again = await call(base, 'POST', '/catalog/products/import', key, exported.text, 'text/csv');
    const small: number[] = [];
    for (let i = 0; i < SMALL_IMPORTS; i++) {
      const file = `article,name,priceKopeks\nIMP-00000,Renamed ${i},${20_000 + i}\n`;
      small.push((await call(base, 'POST', '/catalog/products/import', key, file, 'text/csv')).ms);
    }
    small.sort((a, b) => a - b);
    const mib = (text: string) => (Buffer.byteLength(text) / 2 ** 20).toFixed(2);
    process.stdout.write(
      [
        '',
        `catalog_import: ${lines.length - 1} lines (${mib(file)} MiB, all new): ${created.ms} ms → ${created.text}`,
        `catalog_export: ${exported.text.split('\n').length - 2} lines (${mib(exported.text)} MiB): ${exported.ms} ms`,
        `catalog_import of the export (all unchanged): ${again.ms} ms → ${again.text}`,
        `catalog_import of one changed line, ${SMALL_IMPORTS}×: median ${small[SMALL_IMPORTS >> 1]} ms, ` +
          `min ${small[0]} ms, max ${small[SMALL_IMPORTS - 1]} ms`,
        `PostgreSQL: ${await jitOf(url)}`,
        '',
      ].join('\n'),
    );
  } finally {
    await stopService(service);
    await cleanup();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
