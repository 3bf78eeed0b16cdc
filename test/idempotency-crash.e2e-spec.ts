import {
  SERVICE_ADMIN as ADMIN,
  serviceEnv,
  spawnService,
  stopService,
  waitForHealth,
  type ServiceProcess,
} from './support/service-process';
import { createTestDatabase, withClient, type TestDatabase } from './support/test-database';

const CYCLES = 3;
const MAX_CYCLES = 6;
const IN_FLIGHT = 12;
const RECIPIENT = { fullName: 'Crash Test', phone: '+79120000000' };

type Headers = Record<string, string>;
interface Answer {
  status: number;
  body: any;
  replayed: boolean;
}
interface Op {
  kind: 'adjustment' | 'platform order' | 'storefront order' | 'acceptance' | 'return approval' | 'return receipt';
  key: string;
  path: string;
  body: object;
  headers: Headers;
  /** The status its one effect answers with. */
  status: number;
  /** Set for the return actions: the return it acts on. */
  returnId?: number;
}

/**
 * Contract §11 across SIGKILLs: keyed requests of every route kind that changes stock or orders,
 * the service killed at a random moment under that load, then every key retried. Each key has
 * exactly one effect, and every answer given for a key, before the kill or after, is the same.
 */
describe('Idempotency-Key across crashes', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let service: ServiceProcess | undefined;
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    env = await serviceEnv(db.url, {
      // A claim left by the killed process is taken over after a second, not two minutes.
      IDEMPOTENCY_ABANDON_SECONDS: '1',
      // One key sends the whole load and its retries: the per-key rate limit is not under test here.
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
    });
  });
  afterAll(async () => {
    if (service) await stopService(service, 'SIGKILL');
    await db?.drop();
  });

  async function call(method: string, path: string, body?: unknown, headers: Headers = {}): Promise<Answer> {
    const response = await fetch(`${service!.baseUrl}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? JSON.parse(text) : undefined,
      replayed: response.headers.get('idempotent-replayed') === 'true',
    };
  }
  const send = (op: Op) => call('POST', op.path, op.body, { ...op.headers, 'Idempotency-Key': op.key });
  const start = async () => {
    service = spawnService(env);
    await waitForHealth(service);
  };
  const query = async <T>(sql: string, params: unknown[] = []) =>
    withClient(db.url, async (c) => (await c.query(sql, params)).rows as T[]);

  it('gives every key exactly one effect and one answer, whatever the moment of the kill', async () => {
    await start();
    const admin = { Authorization: `Bearer ${(await call('POST', '/auth/login', ADMIN)).body.token}` };
    const brand = (await call('POST', '/admin/brands', { name: 'Crash', slug: 'crash' }, admin)).body.id;
    const keyOf = async (permissions: string[]): Promise<Headers> => ({
      Authorization: `Bearer ${(await call('POST', `/admin/brands/${brand}/integration-keys`, { name: 'k', permissions }, admin)).body.key}`,
    });
    const clerk = await keyOf([
      'products.write',
      'stock.write',
      'orders.write',
      'orders.read',
      'orders.create_partner',
      'returns.write',
      'returns.read',
    ]);
    const site = (await call('POST', `/admin/brands/${brand}/production-sites`, { name: 'Workshop' }, admin)).body;
    const siteKey = (await call('POST', `/admin/brands/${brand}/production-sites/${site.id}/keys`, undefined, admin))
      .body.key;
    const workshop = { Authorization: `Bearer ${siteKey}` };
    const product = (
      await call(
        'POST',
        '/catalog/products',
        {
          name: 'Tee',
          article: 'T-1',
          storefrontArticle: 'SF-T-1',
          priceKopeks: 1000,
          sizes: [{ name: 'M', stock: 100000 }],
        },
        clerk,
      )
    ).body;
    const sizeId: number = product.sizes[0].id;

    /** A paid order of one unit with a return requested for it, for a return action to act on. */
    const requestedReturn = async (): Promise<{ returnId: number; itemId: number }> => {
      const order = (
        await call(
          'POST',
          '/orders/integrations/partner/webhook',
          {
            partnerOrderId: `for-return-${++seq}`,
            recipient: RECIPIENT,
            items: [{ article: 'SF-T-1', size: 'M', quantity: 1 }],
          },
          clerk,
        )
      ).body.order;
      const items = (await call('GET', `/orders/admin/${order.id}`, undefined, clerk)).body.items;
      const created = await call(
        'POST',
        '/returns',
        {
          orderId: order.id,
          externalReturnId: `ret-${seq}`,
          items: [{ orderItemId: items[0].id, quantity: 1 }],
          reasonCode: 'other',
        },
        clerk,
      );
      return { returnId: created.body.return.id, itemId: created.body.return.items[0].id };
    };

    const cycleOps = async (cycle: number): Promise<Op[]> => {
      const ops: Op[] = [];
      const key = () => `crash-${cycle}-${++seq}`;
      for (let i = 0; i < 40; i++) {
        const k = key();
        ops.push({
          kind: 'adjustment',
          key: k,
          path: '/inventory/adjustments',
          body: { sizeId, delta: 1, reason: k },
          headers: clerk,
          status: 201,
        });
      }
      for (let i = 0; i < 25; i++) {
        const k = key();
        ops.push({
          kind: 'platform order',
          key: k,
          path: '/orders/admin',
          body: { recipient: RECIPIENT, items: [{ sizeId, quantity: 1 }], comment: k },
          headers: clerk,
          status: 201,
        });
      }
      for (let i = 0; i < 25; i++) {
        const k = key();
        ops.push({
          kind: 'storefront order',
          key: k,
          path: '/orders/integrations/partner/webhook',
          body: { partnerOrderId: k, recipient: RECIPIENT, items: [{ article: 'SF-T-1', size: 'M', quantity: 1 }] },
          headers: clerk,
          status: 201,
        });
      }
      for (let i = 0; i < 20; i++) {
        ops.push({
          kind: 'acceptance',
          key: key(),
          path: '/production-api/acceptances',
          body: { items: [{ article: 'T-1', size: 'M', quantity: 1 }] },
          headers: workshop,
          status: 201,
        });
      }
      for (let i = 0; i < 10; i++) {
        const approve = await requestedReturn();
        ops.push({
          kind: 'return approval',
          key: key(),
          path: `/returns/${approve.returnId}/approve`,
          body: {},
          headers: clerk,
          status: 200,
          returnId: approve.returnId,
        });
        const receive = await requestedReturn();
        ops.push({
          kind: 'return receipt',
          key: key(),
          path: `/returns/${receive.returnId}/receive`,
          body: { items: [{ returnItemId: receive.itemId, quantity: 1, disposition: 'restock' }] },
          headers: clerk,
          status: 200,
          returnId: receive.returnId,
        });
      }
      return ops.sort(() => Math.random() - 0.5);
    };

    let cutShort = 0;
    for (let cycle = 1; cycle <= MAX_CYCLES && (cycle <= CYCLES || cutShort === 0); cycle++) {
      const ops = await cycleOps(cycle);
      const before = new Map<string, Answer>();
      let next = 0;
      const worker = async () => {
        while (next < ops.length) {
          const op = ops[next++];
          try {
            before.set(op.key, await send(op));
          } catch {
            return; // the kill
          }
        }
      };
      const load = Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 700));
      await stopService(service!, 'SIGKILL');
      await load;
      // PostgreSQL may still carry out a COMMIT the killed process had sent: read once its sessions are gone.
      for (let tries = 0; tries < 100; tries++) {
        const [{ n }] = await query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        );
        if (n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Keys whose change committed while their answer did not: the moment this suite is about.
      const settled = await query<{ key: string; answered: boolean }>(
        `SELECT key, response_status IS NOT NULL AS answered FROM idempotency_keys
          WHERE response_status IS NOT NULL OR cardinality(effects) > 0`,
      );
      cutShort += settled.filter((row) => !row.answered).length;
      // What a retry answers as a replay: an answer stored, or a change committed that the retry finishes.
      const replayable = new Set(settled.map((row) => row.key));

      await start();
      const after = new Map<string, Answer>();
      await Promise.all(
        Array.from({ length: 4 }, async (_, lane) => {
          for (const op of ops.filter((_, i) => i % 4 === lane)) {
            let answer = await send(op);
            // In progress until the killed run's claim is abandoned (a second), then taken over.
            for (let tries = 0; answer.status === 409 && tries < 50; tries++) {
              await new Promise((resolve) => setTimeout(resolve, 200));
              answer = await send(op);
            }
            after.set(op.key, answer);
          }
        }),
      );

      // The retry that finishes a change cut short answers as a replay (the change is the killed run's);
      // one whose killed run committed nothing ran anew.
      for (const op of ops.filter((o) => !before.has(o.key))) {
        expect({ kind: op.kind, replayed: after.get(op.key)!.replayed }).toEqual({
          kind: op.kind,
          replayed: replayable.has(op.key),
        });
      }
      for (const op of ops) {
        const first = before.get(op.key) ?? after.get(op.key)!;
        expect({ kind: op.kind, status: first.status }).toEqual({ kind: op.kind, status: op.status });
        expect({ kind: op.kind, body: after.get(op.key)!.body }).toEqual({ kind: op.kind, body: first.body });
        const again = await send(op);
        expect({ kind: op.kind, replayed: again.replayed, body: again.body }).toEqual({
          kind: op.kind,
          replayed: true,
          body: first.body,
        });
      }
      await expectOneEffectEach(ops, (key) => before.get(key) ?? after.get(key)!);
    }
    expect(cutShort).toBeGreaterThan(0);
  });

  async function expectOneEffectEach(ops: Op[], answerOf: (key: string) => Answer): Promise<void> {
    const keys = (kind: Op['kind']) => ops.filter((op) => op.kind === kind).map((op) => op.key);
    const counts = async (sql: string, values: unknown[]) =>
      (await query<{ k: string; n: number }>(sql, [values])).reduce(
        (map, row) => map.set(String(row.k), row.n),
        new Map<string, number>(),
      );
    const expectOnce = (kind: Op['kind'], found: Map<string, number>, idOf: (op: Op) => string) => {
      const wrong = ops.filter((op) => op.kind === kind && found.get(idOf(op)) !== 1);
      expect(wrong.map((op) => ({ kind, key: op.key, effects: found.get(idOf(op)) ?? 0 }))).toEqual([]);
    };

    // Kinds whose effect carries the request's own key, and where it lands.
    const keyedEffects: Array<[Op['kind'], string]> = [
      ['adjustment', 'SELECT note AS k, count(*)::int AS n FROM stock_movements WHERE note = ANY($1) GROUP BY 1'],
      ['platform order', 'SELECT comment AS k, count(*)::int AS n FROM orders WHERE comment = ANY($1) GROUP BY 1'],
      [
        'storefront order',
        'SELECT partner_order_id AS k, count(*)::int AS n FROM orders WHERE partner_order_id = ANY($1) GROUP BY 1',
      ],
    ];
    for (const [kind, statement] of keyedEffects) expectOnce(kind, await counts(statement, keys(kind)), (op) => op.key);
    // An acceptance has no key of its own: each answer names a distinct row, and there are no others.
    const acceptances = ops.filter((op) => op.kind === 'acceptance').map((op) => answerOf(op.key).body.id as number);
    expect(new Set(acceptances).size).toBe(acceptances.length);
    expectOnce(
      'acceptance',
      await counts(
        `SELECT acceptance_id AS k, count(*)::int AS n FROM stock_movements WHERE acceptance_id = ANY($1) GROUP BY 1`,
        acceptances,
      ),
      (op) => String(answerOf(op.key).body.id),
    );
    const returnIds = ops.filter((op) => op.returnId !== undefined).map((op) => op.returnId!);
    const states = await query<{ id: number; status: string; restocked: number }>(
      `SELECT r.id, r.status,
              (SELECT count(*)::int FROM stock_movements m WHERE m.order_id = r.order_id AND m.reason = 'return') AS restocked
         FROM returns r WHERE r.id = ANY($1)`,
      [returnIds],
    );
    for (const op of ops.filter((o) => o.returnId !== undefined)) {
      const state = states.find((s) => s.id === op.returnId)!;
      const expected =
        op.kind === 'return approval' ? { status: 'approved', restocked: 0 } : { status: 'received', restocked: 1 };
      expect({ kind: op.kind, status: state.status, restocked: state.restocked }).toEqual({
        kind: op.kind,
        ...expected,
      });
    }
  }
});
