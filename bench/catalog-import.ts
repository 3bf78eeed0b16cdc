/**
 * npm run bench:catalog-import
 * One catalog import of 10 000 lines, the heaviest kind: 10 000 new products of one size each (so
 * 10 000 product events, the brand's webhook endpoint subscribed to them), timed from
 * request to answer; then its export, and that export imported again (every line unchanged).
 * Not a load test: three requests, one after another, on the built service on a fresh database.
 */
import { freshDatabase } from './database';
import { startService, stopService, waitHealthy } from './service-process';

const PRODUCTS = 10_000;
const SIZES = ['M'];
const JSON_TYPE = 'application/json';

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
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': JSON_TYPE },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password-1' }),
    });
    const admin = ((await login.json()) as { token: string }).token;
    const brand = (
      JSON.parse(
        (
          await call(
            base,
            'POST',
            '/admin/brands',
            admin,
            JSON.stringify({ name: 'Import', slug: 'import' }),
            JSON_TYPE,
          )
        ).text,
      ) as { id: number }
    ).id;
    await call(
      base,
      'POST',
      `/admin/brands/${brand}/webhook-endpoints`,
      admin,
      JSON.stringify({ url: 'http://127.0.0.1:9/products', eventTypes: ['product.created', 'product.updated'] }),
      JSON_TYPE,
    );
    const key = (
      JSON.parse(
        (
          await call(
            base,
            'POST',
            `/admin/brands/${brand}/integration-keys`,
            admin,
            JSON.stringify({ name: 'bench import', permissions: ['products.write', 'products.read'] }),
            JSON_TYPE,
          )
        ).text,
      ) as { key: string }
    ).key;

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
    const mib = (text: string) => (Buffer.byteLength(text) / 2 ** 20).toFixed(2);
    process.stdout.write(
      [
        '',
        `catalog_import: ${lines.length - 1} lines (${mib(file)} MiB, all new): ${created.ms} ms → ${created.text}`,
        `catalog_export: ${exported.text.split('\n').length - 2} lines (${mib(exported.text)} MiB): ${exported.ms} ms`,
        `catalog_import of the export (all unchanged): ${again.ms} ms → ${again.text}`,
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
