import { Client } from 'pg';
import type { BrandContext } from '../../src/common/context/request-context';
import { AppError } from '../../src/common/errors/app-error';
import { DomainEvents } from '../../src/domain-events/domain-events';
import type { EventPart } from '../../src/domain-events/domain-events.sql';
import { EventsRepository } from '../../src/domain-events/events.repository';
import { EventsService } from '../../src/events-api/events.service';
import { IdentityModule } from '../../src/identity/identity.module';
import { OrdersModule } from '../../src/orders/orders.module';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher';
import { WebhookEndpointsService } from '../../src/webhooks/webhook-endpoints.service';
import { WebhooksModule } from '../../src/webhooks/webhooks.module';
import { readPage, readToEnd, sequenceProblems, type EventPageFetch, type ReadEvent } from '../support/event-stream';
import { eventually } from '../support/eventually';
import { EventsApiModule } from '../../src/events-api/events-api.module';
import { openMedium, type MediumSuite } from '../support/medium';
import {
  keyContext,
  mediumBrand,
  mediumIntegrationKey,
  mediumProduct,
  mediumStorefrontOrder,
  superadminContext,
} from '../support/medium-fixtures';
import { seedOrder } from '../support/orders-seed';
import { createTestDatabase, PREPARED_TRANSACTIONS_ENV, withClient, type TestDatabase } from '../support/test-database';
import { WebhookReceiver } from '../support/webhook-receiver';

/** An order event as the order core appends it, through the real statement (DomainEvents.sql). */
let seq = 0;

const TEST_EVENT: EventPart = {
  subject: 'order',
  brandId: 'o.brand_id',
  subjectId: 'o.id',
  type: '$2',
  data: (sequence) => `jsonb_build_object('orderId', o.id, 'sequence', ${sequence})`,
  from: '(SELECT * FROM orders WHERE id = $1) AS o',
};

/**
 * Reading events (contract §16) through the events service, under writers that commit out of id
 * order: every event once, in stream order, each subject in sequence, and a horizon that only this
 * database's transactions hold back. The same over HTTP, and its answers: events-api.e2e-spec.ts.
 */
describe('reading the events stream through the events service', () => {
  let suite: MediumSuite;
  let receiver: WebhookReceiver;
  /** A brand of its own with no endpoint, whose events the tests write one by one. */
  let quiet: number;
  /** GET /events as its controller asks the service, with an orders.read key of the quiet brand. */
  let read: EventPageFetch;
  /** A brand whose storefront orders are webhook messages to `/all`. */
  let heard: BrandContext;

  const storedEvents = async () =>
    suite.dataSource.query<Array<{ id: number; type: string; subject: string; subject_id: number; sequence: number }>>(
      `SELECT id::int AS id, type, subject, subject_id, sequence FROM domain_events WHERE brand_id = $1 ORDER BY id`,
      [quiet],
    );
  const storefrontOrder = () =>
    mediumStorefrontOrder(suite, heard, { partnerOrderId: `EV-${++seq}`, article: 'SF-CAP', size: 'One' });
  /** Runs the worker (WEBHOOK_WORKER=false) until no delivery is pending. */
  async function deliverAll(): Promise<void> {
    const dispatcher = suite.get(WebhookDispatcher);
    for (let i = 0; i < 40; i++) {
      await dispatcher.runOnce();
      await dispatcher.drain();
      const [{ n }] = await suite.dataSource.query<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`,
      );
      if (n === 0) return;
    }
    throw new Error('deliveries still pending');
  }

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    suite = await openMedium([IdentityModule, OrdersModule, WebhooksModule, EventsApiModule], {
      env: { WEBHOOK_WORKER: 'false', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', SECRETS_ENCRYPTION_KEY: 'cd'.repeat(32) },
    });
    quiet = await mediumBrand(suite);
    const reader = await mediumIntegrationKey(suite, await superadminContext(suite, quiet), {
      permissions: ['orders.read'],
    });
    const events = suite.get(EventsService);
    read = async (query) => {
      const params = new URLSearchParams(query);
      const ask = {
        limit: Number(params.get('limit') ?? 100),
        after: params.get('after') ?? undefined,
        waitSeconds: Number(params.get('waitSeconds') ?? 0),
        types: params.get('types') ?? undefined,
      };
      try {
        return {
          status: 200,
          body: await events.list(keyContext(reader.principal, '/events'), ask, new AbortController().signal),
        };
      } catch (error) {
        if (error instanceof AppError) return { status: error.status, body: { error: error.message } };
        throw error;
      }
    };
    heard = await superadminContext(suite, await mediumBrand(suite));
    await suite.get(WebhookEndpointsService).create(heard, { url: receiver.url('/all'), eventTypes: ['*'] });
    await mediumProduct(suite, heard, {
      name: 'Cap',
      article: 'CAP',
      storefrontArticle: 'SF-CAP',
      priceKopeks: 15000,
      sizes: [{ name: 'One', stock: 1000 }],
    });
  });
  afterAll(async () => {
    await suite?.close();
    await receiver?.stop();
  });

  describe('writers that commit out of id order', () => {
    let pool: Client[];

    beforeAll(async () => {
      pool = await Promise.all(
        [0, 1, 2].map(async () => {
          const client = new Client({ connectionString: suite.db.url });
          await client.connect();
          return client;
        }),
      );
    });
    afterAll(async () => {
      await Promise.all(pool.map((c) => c.end()));
    });

    const appendSql = () => suite.get(DomainEvents).sql.append(TEST_EVENT);
    /** As the order core does: the order's row locked first, then the event appended by a statement of its own. */
    const append = async (client: Client, orderId: number, type: string) => {
      await client.query('SELECT 1 FROM orders WHERE id = $1 FOR UPDATE', [orderId]);
      await client.query(appendSql(), [orderId, type]);
    };
    const page = (after?: string) => readPage(read, { after });

    it('holds back an event until every one that could come before it has ended, then reads both once', async () => {
      const [t1, t2] = pool;
      const [first, second] = [await seedOrder(suite.db.url, quiet), await seedOrder(suite.db.url, quiet)];
      const start = await readToEnd(read);
      await t1.query('BEGIN');
      await append(t1, first, 'order.paid');
      await t2.query('BEGIN');
      await append(t2, second, 'order.paid');
      await t2.query('COMMIT');
      const [{ id: lower }] = (
        await t1.query(`SELECT max(id)::int AS id FROM domain_events WHERE subject_id = $1`, [first])
      ).rows;
      // Paging by id would read T2's event and step past T1's lower id for good.
      const held = await page(start.cursor);
      expect(held).toEqual({ items: [], nextCursor: start.cursor });
      await t1.query('COMMIT');
      const after = await eventually(async () => {
        const next = await page(held.nextCursor);
        expect(next.items.map((e) => e.data.orderId)).toEqual([first, second]);
        return next;
      });
      expect(after.items[0].id).toBe(lower);
      expect((await page(after.nextCursor)).items).toEqual([]);
    });

    it('a rolled-back writer holds the stream back only while it runs', async () => {
      const [t1, t2] = pool;
      const [gone, kept] = [await seedOrder(suite.db.url, quiet), await seedOrder(suite.db.url, quiet)];
      const start = await readToEnd(read);
      await t1.query('BEGIN');
      await append(t1, gone, 'order.paid');
      await append(t2, kept, 'order.paid');
      expect((await page(start.cursor)).items).toEqual([]);
      await t1.query('ROLLBACK');
      await eventually(async () => expect((await page(start.cursor)).items.map((e) => e.data.orderId)).toEqual([kept]));
    });

    it("keeps one subject's order when its later event's transaction has the smaller id", async () => {
      const [t1, t2] = pool;
      const order = await seedOrder(suite.db.url, quiet);
      const start = await readToEnd(read);
      await t1.query('BEGIN');
      await t1.query('SELECT pg_current_xact_id()');
      await t2.query('BEGIN');
      await append(t2, order, 'order.paid');
      await t2.query('COMMIT');
      await append(t1, order, 'order.shipped');
      await t1.query('COMMIT');
      await eventually(async () =>
        expect((await page(start.cursor)).items.map((e) => [e.type, e.data.sequence])).toEqual([
          ['order.paid', 1],
          ['order.shipped', 2],
        ]),
      );
    });

    it('many interleaved writers: a polling reader sees every event once and each subject in sequence', async () => {
      const orders = await Promise.all(Array.from({ length: 6 }, () => seedOrder(suite.db.url, quiet)));
      const seen: ReadEvent[] = [];
      let { cursor } = await readToEnd(read);
      let writing = true;
      const poll = (async () => {
        while (writing) {
          const next = await page(cursor);
          seen.push(...next.items);
          cursor = next.nextCursor;
        }
      })();
      // Each writer holds its transaction open over a few appends and sleeps, so commits land
      // out of id order all the time.
      await Promise.all(
        pool.map(async (client, w) => {
          for (let round = 0; round < 12; round++) {
            await client.query('BEGIN');
            // Locked in one order (ascending), so the writers never deadlock.
            const picked = [0, 1, 2].map((i) => (w * 2 + round + i) % orders.length).sort((a, b) => a - b);
            for (const i of picked) {
              await append(client, orders[i], 'order.paid');
              await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
            }
            await client.query(Math.random() < 0.2 ? 'ROLLBACK' : 'COMMIT');
          }
        }),
      ).finally(() => (writing = false));
      await poll;
      const stored = (await storedEvents()).filter((e) => orders.includes(e.subject_id));
      await eventually(async () => {
        const rest = await readToEnd(read, { after: cursor });
        seen.push(...rest.events);
        cursor = rest.cursor;
        expect(seen.map((e) => e.id).sort((a, b) => a - b)).toEqual(stored.map((e) => e.id));
      });
      expect(sequenceProblems(seen, true)).toEqual([]);
    });

    describe("the horizon is this database's writers', not the server's", () => {
      let neighbour: TestDatabase;
      let other: Client;

      beforeAll(async () => {
        neighbour = await createTestDatabase({ empty: true });
        await withClient(neighbour.url, (c) => c.query('CREATE TABLE t (i int)'));
        other = new Client({ connectionString: neighbour.url });
        await other.connect();
      });
      afterAll(async () => {
        await other?.end();
        await neighbour?.drop();
      });

      /** After `held` has opened a transaction, a new order's event committed; `release` ends it on a failure. */
      async function committedWhile(held: () => Promise<void>, release: () => Promise<void>) {
        const order = await seedOrder(suite.db.url, quiet);
        const start = await readToEnd(read);
        await held();
        try {
          const [writer] = pool;
          await writer.query('BEGIN');
          await append(writer, order, 'order.paid');
          await writer.query('COMMIT');
          return { order, start };
        } catch (error) {
          await release();
          throw error;
        }
      }

      it("another database's open write transaction does not hold the feed back", async () => {
        let running = '';
        const { order, start } = await committedWhile(
          async () => {
            await other.query('BEGIN');
            await other.query('INSERT INTO t VALUES (1)');
            running = (await other.query('SELECT pg_current_xact_id()::text AS id')).rows[0].id;
          },
          () => other.query('ROLLBACK').then(() => undefined),
        );
        try {
          // By the server's oldest running transaction (the neighbour's), nothing would show.
          const [{ xmin }] = (await pool[1].query(`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`))
            .rows as Array<{ xmin: string }>;
          expect(BigInt(xmin)).toBeLessThanOrEqual(BigInt(running));
          await eventually(
            async () => expect((await page(start.cursor)).items.map((e) => e.data.orderId)).toEqual([order]),
            5_000,
          );
          // Webhook deliveries wait on no horizon: each is a row its event's transaction wrote, claimed once committed.
          const sent = await storefrontOrder();
          await deliverAll();
          expect(
            receiver.at('/all').some((m) => m.json.type === 'order.created' && m.json.data.orderId === sent.id),
          ).toBe(true);
        } finally {
          await other.query('ROLLBACK');
        }
      });

      it("this database's open write transaction holds it back, and its age is the lag", async () => {
        const events = suite.get(EventsRepository);
        const [holder] = pool.slice(2);
        const { order, start } = await committedWhile(
          async () => {
            await holder.query('BEGIN');
            await holder.query('SELECT pg_current_xact_id()');
          },
          () => holder.query('ROLLBACK').then(() => undefined),
        );
        try {
          await new Promise((resolve) => setTimeout(resolve, 1_100));
          expect(await page(start.cursor)).toEqual({ items: [], nextCursor: start.cursor });
          expect(await events.horizonLagSeconds()).toBeGreaterThanOrEqual(1);
        } finally {
          await holder.query('COMMIT');
        }
        await eventually(async () =>
          expect((await page(start.cursor)).items.map((e) => e.data.orderId)).toEqual([order]),
        );
        await eventually(async () => expect(await events.horizonLagSeconds()).toBeLessThan(1));
      });

      // PREPARE TRANSACTION needs max_prepared_transactions, which the embedded test server sets.
      (process.env[PREPARED_TRANSACTIONS_ENV] ? it : it.skip)(
        'a transaction prepared here holds the feed back; one prepared in another database does not',
        async () => {
          const gid = `cil-test-${Date.now()}`;
          const elsewhere = await committedWhile(
            async () => {
              await other.query('BEGIN');
              await other.query('INSERT INTO t VALUES (2)');
              await other.query(`PREPARE TRANSACTION '${gid}-other'`);
            },
            () => other.query(`ROLLBACK PREPARED '${gid}-other'`).then(() => undefined),
          );
          try {
            await eventually(
              async () =>
                expect((await page(elsewhere.start.cursor)).items.map((e) => e.data.orderId)).toEqual([
                  elsewhere.order,
                ]),
              5_000,
            );
          } finally {
            await other.query(`ROLLBACK PREPARED '${gid}-other'`);
          }
          const [, , holder] = pool;
          const here = await committedWhile(
            async () => {
              await holder.query('BEGIN');
              await holder.query('SELECT pg_current_xact_id()');
              await holder.query(`PREPARE TRANSACTION '${gid}-here'`);
            },
            () => holder.query(`ROLLBACK PREPARED '${gid}-here'`).then(() => undefined),
          );
          try {
            await new Promise((resolve) => setTimeout(resolve, 300));
            expect((await page(here.start.cursor)).items).toEqual([]);
            expect(await suite.get(EventsRepository).horizonLagSeconds()).toBeGreaterThan(0.2);
          } finally {
            await holder.query(`COMMIT PREPARED '${gid}-here'`);
          }
          await eventually(async () =>
            expect((await page(here.start.cursor)).items.map((e) => e.data.orderId)).toEqual([here.order]),
          );
        },
      );
    });
  });
});
