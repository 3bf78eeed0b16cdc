import { Client } from 'pg';
import type { BrandContext } from '../../src/common/context/request-context';
import { ErrorText } from '../../src/common/errors/error-texts';
import type { EventPageResponse } from '../../src/events-api/dto/event.responses';
import type { ListEventsQueryDto } from '../../src/events-api/dto/list-events-query.dto';
import { EventsApiModule } from '../../src/events-api/events-api.module';
import { EventsService } from '../../src/events-api/events.service';
import { IdentityModule } from '../../src/identity/identity.module';
import { OrdersModule } from '../../src/orders/orders.module';
import { openMedium, type MediumSuite } from '../support/medium';
import {
  appErrorOf,
  keyContext,
  mediumBrand,
  mediumIntegrationKey,
  mediumProduct,
  mediumStorefrontOrder,
  superadminContext,
} from '../support/medium-fixtures';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MODULES = [IdentityModule, OrdersModule, EventsApiModule];

/**
 * Long polls on the events API (contract §20) across two instances of the service on one database:
 * a wait on one ends within a second of an order committed on the other, a wait with nothing to
 * read ends on time, holds no pooled connection, and a key has ten waiting at once. Over HTTP, on
 * both platforms: events-long-polls.e2e-spec.ts.
 */
describe('long polls on the events API across instances', () => {
  let db: TestDatabase;
  let reader: MediumSuite;
  let writer: MediumSuite;
  let admin: BrandContext;
  let readerCtx: BrandContext;
  let writerCtx: BrandContext;
  let cursor: string;
  let seq = 0;

  const list = (instance: MediumSuite, ctx: BrandContext, query: Partial<ListEventsQueryDto>, signal?: AbortSignal) =>
    instance
      .get(EventsService)
      .list(ctx, { limit: 100, waitSeconds: 0, types: 'order.*', ...query }, signal ?? new AbortController().signal);
  const order = () =>
    mediumStorefrontOrder(writer, admin, { partnerOrderId: `LP-${++seq}`, article: 'SF-LP', size: 'One' });
  const timed = async <T>(work: Promise<T>) => {
    const started = Date.now();
    const value = await work;
    return { value, ms: Date.now() - started, endedAt: Date.now() };
  };
  const toEnd = async (ctx: BrandContext) => {
    let page: EventPageResponse = await list(reader, ctx, {});
    while (page.items.length > 0) page = await list(reader, ctx, { after: page.nextCursor });
    return page.nextCursor;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    // A pool of two on the reader: ten waits holding a connection each would starve every other read.
    const env = { REDIS_URL, RATE_LIMIT_KEY_PREFIX: `lp-${process.pid}-${Date.now()}`, OUTBOX_WORKER: 'false' };
    reader = await openMedium(MODULES, { db, env: { ...env, DATABASE_POOL_SIZE: '2' } });
    writer = await openMedium(MODULES, { db, env });
    const brand = await mediumBrand(writer);
    admin = await superadminContext(writer, brand);
    await mediumProduct(writer, admin, {
      article: 'LP',
      storefrontArticle: 'SF-LP',
      priceKopeks: 1000,
      sizes: [{ name: 'One', stock: 10_000 }],
    });
    const key = await mediumIntegrationKey(writer, admin, { permissions: ['orders.read'] });
    readerCtx = keyContext(key.principal, '/events');
    writerCtx = keyContext(key.principal, '/events');
  });
  afterAll(async () => {
    await reader?.close();
    await writer?.close();
    await db?.drop();
  });
  beforeEach(async () => {
    cursor = await toEnd(readerCtx);
  });

  it('ends a wait on one instance within a second of an order committed on the other', async () => {
    const waiting = timed(list(reader, readerCtx, { after: cursor, waitSeconds: 20 }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const made = await order();
    const committedAt = Date.now();
    const { value: page, endedAt } = await waiting;
    expect(page.items.map((e) => e.data.orderId)).toContain(made.id);
    expect(endedAt - committedAt).toBeLessThan(1_000);
    // The page goes on from the cursor: the next read after it finds nothing new.
    expect((await list(reader, readerCtx, { after: page.nextCursor })).items).toEqual([]);
  });

  it('answers at once when there is something to read, and an empty page with the same cursor after its wait', async () => {
    await order();
    const ready = await timed(list(reader, readerCtx, { after: cursor, waitSeconds: 30 }));
    expect(ready.value.items.length).toBeGreaterThan(0);
    expect(ready.ms).toBeLessThan(1_000);
    const quiet = await timed(list(reader, readerCtx, { after: ready.value.nextCursor, waitSeconds: 2 }));
    expect(quiet.value).toEqual({ items: [], nextCursor: ready.value.nextCursor });
    expect(quiet.ms).toBeGreaterThanOrEqual(1_950);
    expect(quiet.ms).toBeLessThan(3_000);
  });

  it('reads an event held behind an open transaction once that one ends, though it wrote none', async () => {
    const holder = new Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_current_xact_id()');
      const waiting = timed(list(reader, readerCtx, { after: cursor, waitSeconds: 20 }));
      const made = await order();
      // Longer than one recheck: the wait goes on reading until the holder ends.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      await holder.query('COMMIT');
      const endedAt = Date.now();
      const { value: page, endedAt: answeredAt } = await waiting;
      expect(page.items.map((e) => e.data.orderId)).toContain(made.id);
      expect(answeredAt - endedAt).toBeLessThan(1_500);
    } finally {
      await holder.end();
    }
  });

  it('holds no pooled connection while waiting, and lets a key have ten waiting across instances', async () => {
    const stop = new AbortController();
    const waits = [
      ...Array.from({ length: 6 }, () => list(reader, readerCtx, { after: cursor, waitSeconds: 30 }, stop.signal)),
      ...Array.from({ length: 4 }, () => list(writer, writerCtx, { after: cursor, waitSeconds: 30 }, stop.signal)),
    ];
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Six waits on a pool of two: a read that waits for nothing is answered at once.
    const read = await timed(list(reader, readerCtx, { after: cursor }));
    expect(read.ms).toBeLessThan(500);
    const eleventh = await appErrorOf(list(writer, writerCtx, { after: cursor, waitSeconds: 5 }));
    expect(eleventh.status).toBe(429);
    expect(eleventh.message).toBe(ErrorText.tooManyWaiting);
    // A client that hangs up gives its slot back at once.
    stop.abort();
    const ended = await timed(Promise.all(waits));
    expect(ended.ms).toBeLessThan(500);
    expect(ended.value.every((page) => page.items.length === 0 && page.nextCursor === cursor)).toBe(true);
    const again = await timed(list(writer, writerCtx, { after: cursor, waitSeconds: 1 }));
    expect(again.value.items).toEqual([]);
  });
});
