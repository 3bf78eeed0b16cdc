import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, spawnService, stopService, waitForHealth, type ServiceProcess } from './support/service-process';
import { createTestDatabase, type TestDatabase } from './support/test-database';

const run = promisify(execFile);

/** The shell examples of docs/api.md's key, webhook and production sections, in order, as one script. */
function docScript(baseUrl: string): string {
  const doc = readFileSync(path.resolve(__dirname, '../docs/api.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Integration keys'), doc.indexOf('## Security journal'));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  return ['set -euo pipefail', ...blocks].join('\n').replace('BASE=http://localhost:3000', `BASE=${baseUrl}`);
}

/** The docs never lie: the curl examples of docs/api.md run as written against the built service. */
describe('docs/api.md examples', () => {
  let db: TestDatabase;
  let service: ServiceProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    const port = await freePort();
    service = spawnService({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      SESSION_SECRET: 'readme-examples-secret-0123456789abcdef',
      BOOTSTRAP_ADMIN_EMAIL: 'admin@example.com',
      BOOTSTRAP_ADMIN_PASSWORD: 'change-me-now',
      PAYMENT_WEBHOOK_SECRET: 'readme-payment-secret-123',
      // The service keeps a generated development secrets key there: outside the repository.
      DATA_DIR: path.join(tmpdir(), db.name),
    });
    await waitForHealth(service);
  });
  afterAll(async () => {
    if (service) await stopService(service);
    if (db) rmSync(path.join(tmpdir(), db.name), { recursive: true, force: true });
    await db?.drop();
  });

  it('issue a key, check it, revoke it, load the catalog, send a storefront order, confirm a payment, use a site key, return, cancel, retry', async () => {
    const { stdout } = await run('bash', ['-c', docScript(service.baseUrl)], {
      timeout: 60_000,
      env: { ...process.env, PAYMENT_WEBHOOK_SECRET: 'readme-payment-secret-123' },
    });
    expect(stdout).toMatch(/"status":"active"/);
    expect(stdout).toMatch(/^200$/m);
    expect(stdout).toMatch(/"status":"revoked"/);
    expect(stdout).toMatch(/"allowedIps":\["127\.0\.0\.1","::1"\]/);
    expect(stdout).toContain('new key: 200');
    expect(stdout).toMatch(/"name":"ERP".*"status":"expired"/);
    expect(stdout).toMatch(/HTTP\/1\.1 201/);
    expect(stdout).toMatch(
      /"ok":true,"duplicate":false,"order":\{"id":\d+,"orderNumber":"\d+","hash":"[\w-]+","totalKopeks":1405000\}/,
    );
    expect(stdout).toContain(`{"ok":true}`);
    // The catalog from a spreadsheet: the dry run, the import, a refused file, the export.
    expect(stdout).toContain('{"created":2,"updated":0,"unchanged":0,"sizesCreated":2,"dryRun":true}');
    expect(stdout).toContain('{"created":2,"updated":0,"unchanged":0,"sizesCreated":2,"dryRun":false}');
    expect(stdout).toContain(
      '"details":["line 2: priceKopeks must be an integer from 0 to 100000000; name is required on the first line of a new product"]',
    );
    expect(stdout).toContain(
      'LS-002,Linen shirt; sand,TILDA-90,450000,M,\nLS-002,Linen shirt; sand,TILDA-90,450000,L,470000',
    );
    expect(stdout).toMatch(
      /\{"ok":false,"duplicate":false,"lines":\[\{"article":"TILDA-77","size":"m","quantity":1,"matched":true,"productId":\d+,"sizeId":\d+,"priceKopeks":450000,"lineTotalKopeks":450000,"stock":8,"problem":null\},.*"itemsTotalKopeks":450000,"deliveryCostKopeks":0,"totalKopeks":450000,"problems":\["items\.1: product \\"TILDA-77\\" has no size \\"XXL\\""\]\}/,
    );
    // The refused order in the storefront key's request log, and its counts.
    expect(stdout).toContain('refused: 422');
    expect(stdout).toMatch(
      /"status":422,"error":"items\.0: storefront article \\"…\\" matches no product","requestId":"T-10027-1"/,
    );
    expect(stdout).toMatch(/\{"last24h":\{"total":3,"byStatus":\{"200":1,"201":1,"422":1\}/);
    expect(stdout).toMatch(/"duplicate":false,"return":\{"id":\d+,"returnNumber":"R-000001".*"status":"requested"/);
    expect(stdout).toMatch(/"status":"partially_received"|"status":"received"/);
    expect(stdout).toMatch(/"refundStatus":"refunded"/);
    expect(stdout).toMatch(/"status":"closed"/);
    expect(stdout).toMatch(/"status":"cancelled"/);
    // The list filtered (PostgreSQL writes its JSON, with spaces): the cancelled order alone, the storefront order by its number.
    const listed = stdout.replace(/" : /g, '":').replace(/, "/g, ',"');
    expect(listed).toMatch(
      /\{"items":\[\{"id":\d+,[^\]]*"status":"cancelled",[^\]]*"updatedAt":"[\d:.TZ-]+","personalDataErasedAt":null\}\],"total":1\}/,
    );
    expect(listed).toMatch(
      /\{"items":\[\{"id":\d+,"orderNumber":"\d+","source":"storefront","partnerOrderId":"T-10025",[^\]]*\}\],"total":1\}/,
    );
    // The retried adjustment: 201, then 201 again with the replay header.
    expect(stdout).toMatch(/HTTP\/1\.1 201 Created\r?\nHTTP\/1\.1 201 Created\r?\nidempotent-replayed: true/i);
    expect(stdout).toMatch(
      /"site":\{"id":\d+,"name":"Ivanovo workshop"\},"brand":\{"id":1,"name":"Northwind","slug":"northwind"\}/,
    );
  });
});
