import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { issueKey } from './support/fixtures';
import { closeSuite, openSuite, type Suite } from './support/suite';

const CLIENT = path.join(__dirname, '../packages/client');

/** A storefront's job as an integrator writes it, with nothing but the package and TypeScript. */
const STOREFRONT_JOB = `
import { ApiError, createClient } from '@commerce-integration/client';

declare const process: { env: Record<string, string | undefined> };

async function main(): Promise<void> {
  const api = createClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.CIL_API_KEY! });
  const product = await api.catalog.createProduct({
    name: 'Shirt', article: 'PK-1', storefrontArticle: 'SF-PK-1', priceKopeks: 100, sizes: [{ name: 'M', stock: 3 }],
  });
  const taken = await api.storefront.webhook({
    partnerOrderId: 'PK-ORDER', recipient: { fullName: 'A B', phone: '+79120000000' },
    items: [{ article: 'SF-PK-1', size: 'M', quantity: 1 }],
  });
  const order = await api.orders.get(taken.order.id);
  let refused = 0;
  try {
    await api.orders.get(2_000_000_000);
  } catch (e) {
    if (e instanceof ApiError) refused = e.status;
  }
  const stock: number = product.sizes[0].stock;
  console.log(JSON.stringify({ status: order.status, stock, refused }));
}
void main();
`;

/**
 * The client package as npm publishes it (contract §20): `npm pack` makes a tarball that installs
 * into an empty project, type-checks there under `tsc --strict` with nothing else from this
 * repository, and does a storefront's job against the service.
 */
describe('the client package from its tarball', () => {
  let s: Suite;
  let baseUrl: string;
  let folder: string;

  beforeAll(async () => {
    s = await openSuite();
    const server = await s.t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    folder = mkdtempSync(path.join(tmpdir(), 'cil-client-tarball-'));
  });
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    await closeSuite(s);
  });

  it('installs into an empty project, type-checks under --strict and does a storefront job', async () => {
    const run = (command: string, args: string[], cwd: string) =>
      execFileSync(command, args, {
        cwd,
        encoding: 'utf8',
        stdio: 'pipe',
        env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' },
      });
    run('npm', ['pack', '--pack-destination', folder], CLIENT);
    const tarball = readdirSync(folder).find((name) => name.endsWith('.tgz'))!;
    const project = path.join(folder, 'storefront');
    run('mkdir', ['-p', project], folder);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'storefront', private: true }));
    // The registry's packages as this machine's cache holds them: the same the repository installed.
    const typescript = JSON.parse(
      readFileSync(path.join(__dirname, '../node_modules/typescript/package.json'), 'utf8'),
    ) as { version: string };
    run(
      'npm',
      ['install', '--prefer-offline', path.join(folder, tarball), `typescript@${typescript.version}`],
      project,
    );
    writeFileSync(path.join(project, 'job.ts'), STOREFRONT_JOB);
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'ES2023',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['ES2023', 'DOM'],
          outDir: 'out',
        },
        files: ['job.ts'],
      }),
    );
    run(process.execPath, [path.join(project, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project);
    const brand = await s.fx.brand();
    const key = (await issueKey(s.fx, brand, { fullAccess: true })).key;
    // Not a synchronous child: the service answering it runs in this process.
    const { stdout: output } = await promisify(execFile)(process.execPath, ['out/job.js'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH, BASE_URL: baseUrl, CIL_API_KEY: key },
    });
    expect(JSON.parse(output)).toEqual({ status: 'paid', stock: 3, refused: 404 });
  });
});
