import { eventually } from './support/eventually';
import { sequenceProblems, type ReadEvent } from './support/event-stream';
import {
  SERVICE_ADMIN as ADMIN,
  serviceEnv,
  spawnService,
  stopService,
  waitForHealth,
  type ServiceProcess,
} from './support/service-process';
import { createTestDatabase, withClient, type TestDatabase } from './support/test-database';

const WRITERS = 6;
const RECIPIENT = { fullName: 'Crash Reader', phone: '+79120000001' };
type Headers = Record<string, string>;

/**
 * Contract §16 across a SIGKILL: writers keep changing orders and returns over HTTP while a
 * reader follows nextCursor; the service is killed mid-load (its open transactions roll back)
 * and started again, and the reader, carrying its cursor across, ends with every committed
 * event of the brand exactly once, each subject in sequence.
 */
describe('the events API across a kill of the service', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    env = await serviceEnv(db.url, { RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' });
  });
  afterAll(async () => {
    if (service) await stopService(service, 'SIGKILL');
    await db?.drop();
  });

  const start = async () => {
    service = spawnService(env);
    await waitForHealth(service);
  };
  /** A request to whichever process runs now; a refused connection is a status of 0. */
  async function call(method: string, path: string, body?: unknown, headers: Headers = {}) {
    try {
      const response = await fetch(`${service!.baseUrl}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    } catch {
      // Down (killed, or not listening yet): give it a moment.
      await pause(50);
      return { status: 0, body: undefined };
    }
  }
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('reads every committed event once, in sequence, with the cursor carried across the restart', async () => {
    await start();
    const admin = { Authorization: `Bearer ${(await call('POST', '/auth/login', ADMIN)).body.token}` };
    const brand = (await call('POST', '/admin/brands', { name: 'Crash reader', slug: 'crash-reader' }, admin)).body.id;
    const keyOf = async (permissions: string[]): Promise<Headers> => ({
      Authorization: `Bearer ${(await call('POST', `/admin/brands/${brand}/integration-keys`, { name: 'k', permissions }, admin)).body.key}`,
    });
    const clerk = await keyOf([
      'products.write',
      'orders.write',
      'orders.read',
      'orders.create_partner',
      'returns.write',
    ]);
    const reader = await keyOf(['orders.read', 'returns.read', 'stock.read', 'products.read']);
    const product = await call(
      'POST',
      '/catalog/products',
      {
        name: 'Tee',
        article: 'T-1',
        storefrontArticle: 'SF-T-1',
        priceKopeks: 1000,
        sizes: [{ name: 'M', stock: 1e6 }],
      },
      clerk,
    );
    const sizeId: number = product.body.sizes[0].id;

    let writing = true;
    let seq = 0;
    /** Platform orders (created, some cancelled) and storefront orders with a return (requested, some approved). */
    const writer = async () => {
      while (writing) {
        const n = ++seq;
        if (n % 2) {
          const order = await call(
            'POST',
            '/orders/admin',
            { recipient: RECIPIENT, items: [{ sizeId, quantity: 1 }] },
            clerk,
          );
          if (order.status === 201 && n % 3)
            await call('POST', `/orders/admin/${order.body.order.id}/cancel`, {}, clerk);
        } else {
          const order = await call(
            'POST',
            '/orders/integrations/partner/webhook',
            {
              partnerOrderId: `crash-${n}`,
              recipient: RECIPIENT,
              items: [{ article: 'SF-T-1', size: 'M', quantity: 1 }],
            },
            clerk,
          );
          if (order.status !== 201) continue;
          const items = await call('GET', `/orders/admin/${order.body.order.id}`, undefined, clerk);
          if (items.status !== 200) continue;
          const created = await call(
            'POST',
            '/returns',
            {
              orderId: order.body.order.id,
              externalReturnId: `crash-${n}`,
              reasonCode: 'other',
              items: [{ orderItemId: items.body.items[0].id, quantity: 1 }],
            },
            clerk,
          );
          if (created.status === 201 && n % 4)
            await call('POST', `/returns/${created.body.return.id}/approve`, {}, clerk);
        }
      }
    };

    const seen: ReadEvent[] = [];
    let cursor: string | undefined;
    let reading = true;
    const odd: string[] = [];
    const readPage = async () => {
      const page = await call('GET', `/events?limit=25${cursor ? `&after=${cursor}` : ''}`, undefined, reader);
      if (page.status === 0) return 0;
      if (page.status !== 200) {
        odd.push(`${page.status} ${JSON.stringify(page.body)}`);
        return 0;
      }
      seen.push(...(page.body.items as ReadEvent[]));
      cursor = page.body.nextCursor;
      return page.body.items.length as number;
    };
    const readLoop = (async () => {
      while (reading) if ((await readPage()) === 0) await pause(20);
    })();

    const writers = Array.from({ length: WRITERS }, writer);
    await pause(1500);
    const beforeKill = seen.length;
    service!.child.kill('SIGKILL');
    await service!.exited;
    await pause(300);
    await start();
    await pause(1500);
    writing = false;
    await Promise.all(writers);
    reading = false;
    await readLoop;

    const stored = await withClient(db.url, async (c) => {
      const rows = await c.query(`SELECT id::int AS id FROM domain_events WHERE brand_id = $1 ORDER BY id`, [brand]);
      return (rows.rows as Array<{ id: number }>).map((r) => r.id);
    });
    await eventually(async () => {
      while ((await readPage()) > 0);
      expect(seen.map((e) => e.id).sort((a, b) => a - b)).toEqual(stored);
    }, 30_000);
    expect(beforeKill).toBeGreaterThan(0);
    expect(seen.length).toBeGreaterThan(beforeKill);
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    expect(odd).toEqual([]);
    expect(sequenceProblems(seen, true)).toEqual([]);
  });
});
