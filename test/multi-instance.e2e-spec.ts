import { spawn } from 'node:child_process';
import {
  callService,
  SERVICE_ADMIN as ADMIN,
  serviceEnv,
  spawnService,
  stopService,
  waitForHealth,
  type ServiceProcess,
} from './support/service-process';
import { createTestDatabase, withClient, type TestDatabase } from './support/test-database';

/** Three service processes on one database: exactly-once orders, exact stock, revocation everywhere at once. */
describe('several instances on one database', () => {
  let db: TestDatabase;
  let services: ServiceProcess[] = [];

  beforeAll(async () => {
    // Empty: the three start together and must apply each migration once between them.
    db = await createTestDatabase({ empty: true });
    const envs = await Promise.all([serviceEnv(db.url), serviceEnv(db.url), serviceEnv(db.url)]);
    services = envs.map((env) => spawnService(env));
    await Promise.all(services.map((s) => waitForHealth(s)));
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => stopService(s)));
    await db?.drop();
  });

  const call = callService;

  it('identical and distinct webhooks at all three: one order per number, exact stock; revocation acts at once in each', async () => {
    const [first] = services;
    const admin = { Authorization: `Bearer ${(await call(first, 'POST', '/auth/login', ADMIN)).body.token}` };
    const brand = (await call(first, 'POST', '/admin/brands', { name: 'Multi', slug: 'multi' }, admin)).body.id;
    const issue = async (permissions: string[]) =>
      (await call(first, 'POST', `/admin/brands/${brand}/integration-keys`, { name: 'k', permissions }, admin)).body;
    const catalog = await issue(['products.write']);
    const product = (
      await call(
        first,
        'POST',
        '/catalog/products',
        {
          name: 'Tee',
          article: 'T',
          storefrontArticle: 'SF-T',
          priceKopeks: 100,
          sizes: [
            { name: 'S', stock: 100 },
            { name: 'M', stock: 100 },
          ],
        },
        { Authorization: `Bearer ${catalog.key}` },
      )
    ).body;
    const storefront = await issue(['orders.create_partner', 'orders.read']);
    const auth = { Authorization: `Bearer ${storefront.key}` };
    const order = (partnerOrderId: string, sizes: string[]) => ({
      partnerOrderId,
      recipient: { fullName: 'A B', phone: '+79120000000' },
      items: sizes.map((size) => ({ article: 'SF-T', size, quantity: 2 })),
    });

    const identical = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(services[i % 3], 'POST', '/orders/integrations/partner/webhook', order('SAME-1', ['S']), auth),
      ),
    );
    expect(identical.filter((r) => r.status === 201)).toHaveLength(1);
    expect(identical.filter((r) => r.status === 200 && r.body.duplicate === true)).toHaveLength(29);
    expect(new Set(identical.map((r) => r.body.order.id)).size).toBe(1);

    const distinct = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(
          services[i % 3],
          'POST',
          '/orders/integrations/partner/webhook',
          order(`D-${i}`, i % 2 ? ['S', 'M'] : ['M', 'S']),
          auth,
        ),
      ),
    );
    expect(distinct.every((r) => r.status === 201)).toBe(true);
    const stock = await withClient(db.url, (c) =>
      c.query(
        `SELECT s.name, s.stock, (SELECT sum(delta) FROM stock_movements m WHERE m.size_id = s.id)::int AS ledger
           FROM product_sizes s WHERE s.product_id = $1 ORDER BY s.id`,
        [product.id],
      ),
    );
    // S: 2 (the one identical order) + 30 × 2; M: 30 × 2.
    expect(stock.rows).toEqual([
      { name: 'S', stock: 100 - 62, ledger: 100 - 62 },
      { name: 'M', stock: 100 - 60, ledger: 100 - 60 },
    ]);

    for (const service of services)
      expect((await call(service, 'GET', '/orders/admin/all?limit=1', undefined, auth)).status).toBe(200);
    expect(
      (
        await call(
          services[2],
          'POST',
          `/admin/brands/${brand}/integration-keys/${storefront.id}/revoke`,
          undefined,
          admin,
        )
      ).status,
    ).toBe(200);
    for (const service of services)
      expect((await call(service, 'GET', '/orders/admin/all?limit=1', undefined, auth)).status).toBe(401);
  });

  it('npm run start:cluster serves from several workers on one port and stops cleanly', async () => {
    const service = spawnService(await serviceEnv(db.url, { CLUSTER_WORKERS: '2' }), 'cluster.js');
    const { child } = service;
    await waitForHealth(service);
    const workers = await new Promise<number>((resolve) => {
      // The primary's children are the workers.
      const ps = spawn('pgrep', ['-P', String(child.pid)]);
      let pids = '';
      ps.stdout.on('data', (c: Buffer) => (pids += c.toString()));
      ps.once('exit', () => resolve(pids.trim().split('\n').filter(Boolean).length));
    });
    expect(workers).toBe(2);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${service.baseUrl}/health`).then((r) => r.status)),
    );
    expect(answers.every((s) => s === 200)).toBe(true);
    child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  });
});
