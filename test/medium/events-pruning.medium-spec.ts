import { DomainEvents } from '../../src/domain-events/domain-events';
import { EventsPruning } from '../../src/domain-events/events-pruning';
import { IdentityModule } from '../../src/identity/identity.module';
import { OrdersModule } from '../../src/orders/orders.module';
import { ORDER_EVENT } from '../../src/orders/orders.repository';
import { PRUNE_BATCH } from '../../src/common/runtime/batched-pruning';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumBrand } from '../support/medium-fixtures';
import { withClient } from '../support/test-database';

/** Arbitrary, as EventsPruning's own: the test holds it to play another instance pruning. */
const PRUNE_LOCK_KEY = 4_120_771_401;

/**
 * The events' pruning (contract §16, §21): what is older than EVENTS_RETENTION_DAYS goes, in
 * batches, by one instance at a time; an order whose events all went goes on numbering from
 * where they stopped.
 */
describe('pruning the events', () => {
  let s: MediumSuite;
  let brandId: number;
  let seq = 0;

  const query = <T>(text: string, values: unknown[] = []) => s.dataSource.query<T[]>(text, values);

  /** An order row of the brand, written as the service's statements write one. */
  async function order(): Promise<number> {
    const tag = `PRUNE-${process.pid}-${++seq}`;
    const [row] = await query<{ id: number }>(
      `INSERT INTO orders (brand_id, order_number, hash, source, partner_order_id, status, payment_status, ordered_at,
                           items_total_kopeks, total_kopeks, recipient_full_name, recipient_phone)
       VALUES ($1, $2::text, md5($2::text), 'storefront', $2::text, 'paid', 'paid', now(), 100, 100, 'Buyer', '+7') RETURNING id`,
      [brandId, tag],
    );
    return row.id;
  }

  /** An event of the order, appended as its owner appends it: numbered after the last. */
  const append = (orderId: number, type = 'order.status_changed') =>
    query(s.get(DomainEvents).sql.append(ORDER_EVENT), [orderId, type]);

  const eventsOf = (orderId: number) =>
    query<{ sequence: number; position: string }>(
      `SELECT sequence, position FROM domain_events WHERE subject = 'order' AND subject_id = $1 ORDER BY sequence`,
      [orderId],
    );

  const age = (orderId: number, days: number) =>
    query(
      `UPDATE domain_events SET occurred_at = now() - make_interval(days => $2) WHERE subject = 'order' AND subject_id = $1`,
      [orderId, days],
    );

  beforeAll(async () => {
    s = await openMedium([IdentityModule, OrdersModule], {
      env: { EVENTS_RETENTION_DAYS: '30', EVENTS_PRUNE_SECONDS: '0' },
    });
    brandId = await mediumBrand(s);
  }, 60_000);

  afterAll(() => s?.close());

  it('removes what is past the retention in batches, keeps the rest, and numbers on from the pruned', async () => {
    const old = await order();
    for (let i = 0; i < 3; i++) await append(old);
    const [, , last] = await eventsOf(old);
    await age(old, 31);
    const young = await order();
    await append(young);
    await age(young, 29);
    // More than a batch of a size's stock events, past the retention too.
    await query(
      `INSERT INTO domain_events (brand_id, subject, subject_id, sequence, type, occurred_at)
       SELECT $1, 'size', 1, n, 'stock.changed', now() - interval '40 days' FROM generate_series(1, $2) AS n`,
      [brandId, 2 * PRUNE_BATCH + 500],
    );

    expect(await s.get(EventsPruning).runOnce()).toBe(3 + 2 * PRUNE_BATCH + 500);
    expect(await eventsOf(old)).toEqual([]);
    expect(await eventsOf(young)).toHaveLength(1);
    expect(await query(`SELECT count(*)::int AS n FROM domain_events WHERE subject = 'size'`)).toEqual([{ n: 0 }]);
    // Sizes are numbered by their own rows: no floor of theirs.
    expect(await query(`SELECT subject, subject_id, sequence FROM domain_event_floors`)).toEqual([
      { subject: 'order', subject_id: old, sequence: 3 },
    ]);

    await append(old);
    const [next] = await eventsOf(old);
    expect(next.sequence).toBe(4);
    expect(BigInt(next.position)).toBeGreaterThanOrEqual(BigInt(last.position));
    // With an event of its own again, the next one follows that.
    await append(old);
    expect((await eventsOf(old)).map((event) => event.sequence)).toEqual([4, 5]);
  });

  it('numbers on past a pruned event that was later than one kept', async () => {
    // Two writers of one order: the one that started first (an earlier occurred_at, its
    // transaction's start) numbered its event after the other's. Pruned by time, the later
    // number goes and the earlier stays; the next event must not take the pruned number again.
    const both = await order();
    await append(both);
    await append(both);
    await query(
      `UPDATE domain_events SET occurred_at = now() - make_interval(days => 30 + sequence)
        WHERE subject = 'order' AND subject_id = $1`,
      [both],
    );
    await query(
      `UPDATE domain_events SET occurred_at = now() - interval '1 day'
        WHERE subject = 'order' AND subject_id = $1 AND sequence = 1`,
      [both],
    );
    expect(await s.get(EventsPruning).runOnce()).toBe(1);
    expect((await eventsOf(both)).map((event) => event.sequence)).toEqual([1]);
    await append(both);
    expect((await eventsOf(both)).map((event) => event.sequence)).toEqual([1, 3]);
  });

  it('leaves the pruning to the instance that holds it', async () => {
    const old = await order();
    await append(old);
    await age(old, 45);
    const pruned = await withClient(s.db.url, async (client) => {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [PRUNE_LOCK_KEY]);
      const removed = await s.get(EventsPruning).runOnce();
      await client.query('ROLLBACK');
      return removed;
    });
    expect(pruned).toBe(0);
    expect(await eventsOf(old)).toHaveLength(1);
    expect(await s.get(EventsPruning).runOnce()).toBe(1);
  });
});
