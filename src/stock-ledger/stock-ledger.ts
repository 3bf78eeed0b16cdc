import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { DomainEvents } from '../domain-events/domain-events';
import { keptEventPart, type DomainEventsSql, type EventPart } from '../domain-events/domain-events.sql';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { isOutOfRange } from '../common/errors/pg-errors';
import { PreparedStatements, type Prepared } from '../database/prepared';
import type { StockReason } from './dto/stock-reason';
import { STOCK_EVENT_COLUMNS } from './stock-event-columns';

export interface StockChange {
  sizeId: number;
  delta: number;
  reason: StockReason;
  orderId?: number | null;
  acceptanceId?: number | null;
  /** The return whose receipt restocks the size: named by the stock event, not kept in the ledger row. */
  returnId?: number | null;
  note?: string | null;
}

export interface MovementRow {
  id: string;
  size_id: number;
  delta: number;
  reason: StockReason;
  order_id: number | null;
  acceptance_id: number | null;
  note: string | null;
  actor_kind: string | null;
  actor_id: number | null;
  created_at: Date;
}

export interface LedgerActor {
  kind: string | null;
  id: number | null;
}

/**
 * The ledger's statement parts, for the statements that change stock: StockLedger.apply, and the
 * order writer, which takes an order and its stock in one statement. Arguments are SQL
 * placeholders or CTE names of the calling statement.
 */
export const LedgerSql = {
  /**
   * Locks the sizes in id order and reads their stock, so every transaction takes its size locks
   * in the same order and overlapping orders cannot deadlock. By id alone, so the plan is a
   * primary-key lookup whatever the statistics say. Only when `condition` holds. Yields (id, stock).
   */
  lockSizes: (sizeIds: string, condition?: string) =>
    `SELECT id, stock FROM product_sizes WHERE id = ANY(${sizeIds}::int[])${condition ? ` AND ${condition}` : ''} ORDER BY id FOR NO KEY UPDATE`,

  /**
   * `stock = stock + delta` for each locked size of the brand, when `condition` holds; `changes` is
   * a FROM item of (size id, delta), one row a size, and with `withArticles` also of article and
   * storefront_article. Yields the size's new row with its delta (and those), which the stock
   * events are built from without another join. The sizes are named by an id array too: joined
   * only to the locked rows, a generic plan made for a small catalog scans every size of the
   * table to hash-join a few (0.25 ms for 1 000 sizes, an order's fifth).
   */
  addDeltas: (p: { locked: string; changes: string; brandId: string; condition?: string; withArticles?: boolean }) =>
    `UPDATE product_sizes s SET stock = s.stock + d.delta,
            stock_events = s.stock_events + (d.delta <> 0)::int,
            stock_event_position = CASE WHEN d.delta <> 0 THEN GREATEST(domain_event_position(), s.stock_event_position)
                                        ELSE s.stock_event_position END
       FROM ${p.locked} AS l JOIN ${p.changes} AS d(id, delta) ON d.id = l.id
      WHERE s.id = l.id AND s.id = ANY (ARRAY(SELECT id FROM ${p.locked})) AND s.brand_id = ${p.brandId}${p.condition ? ` AND ${p.condition}` : ''}
      RETURNING s.id, s.stock, s.product_id, s.name, s.stock_events, s.stock_event_position, d.delta${p.withArticles ? ', d.article, d.storefront_article' : ''}`,

  /**
   * The `stock.changed` events (contract §16) of the sizes `updated` (addDeltas) changed: one a
   * size whose net change is not zero. Numbered and positioned from the updated row (DomainEvents'
   * `numbered`). `cause` holds SQL expressions of the event's reason, order id and return id.
   */
  stockEvents: (p: {
    updated: string;
    brandId: string;
    cause: { reason: string; orderId: string; returnId: string };
    /** True when addDeltas was given the articles (no lookup then). */
    withArticles?: boolean;
  }): EventPart =>
    keptEventPart({
      brandId: p.brandId,
      subjectId: 'u.id',
      type: `'stock.changed'`,
      columns: STOCK_EVENT_COLUMNS,
      values: {
        productId: 'u.product_id',
        article: `${p.withArticles ? 'u' : 'pa'}.article`,
        storefrontArticle: `${p.withArticles ? 'u' : 'pa'}.storefront_article`,
        size: 'u.name',
        delta: 'u.delta',
        stock: 'u.stock',
        reason: p.cause.reason,
        orderId: p.cause.orderId,
        returnId: p.cause.returnId,
      },
      from: `${p.updated} AS u${
        p.withArticles
          ? ''
          : `
           JOIN (SELECT id, article, storefront_article FROM products
                  WHERE id = ANY (ARRAY(SELECT product_id FROM ${p.updated}))) AS pa ON pa.id = u.product_id`
      }`,
      condition: 'u.delta <> 0',
      numbered: { sequence: 'u.stock_events', position: 'u.stock_event_position' },
    }),

  /**
   * The ledger rows, from a SELECT of (brand_id, size_id, delta, reason, order_id, acceptance_id,
   * note, actor_kind, actor_id). The (size, brand) foreign key fails the whole statement for a
   * size of another brand.
   */
  recordMovements: (select: string) =>
    `INSERT INTO stock_movements (brand_id, size_id, delta, reason, order_id, acceptance_id, note, actor_kind, actor_id) ${select}`,
};

export const MOVEMENTS = `SELECT id, size_id, delta, reason, order_id, acceptance_id, note, actor_kind, actor_id, created_at
   FROM stock_movements WHERE brand_id = $1 AND ($2::int IS NULL OR size_id = $2)
  ORDER BY id DESC LIMIT $3`;

/** The ledger's statement, with the stock events and what their subscribers write; $12–$14 are the cause. */
export const applyChanges = (events: DomainEventsSql): Prepared => ({
  name: 'apply_stock_changes',
  text: `WITH locked AS (${LedgerSql.lockSizes('$1')}),
       updated AS (${LedgerSql.addDeltas({ locked: 'locked', changes: 'unnest($1::int[], $2::int[])', brandId: '$3' })}),
       moved AS (${LedgerSql.recordMovements(
         `SELECT $3, m.size_id, m.delta, m.reason, m.order_id, m.acceptance_id, m.note, $4, $5
            FROM unnest($6::int[], $7::int[], $8::text[], $9::int[], $10::int[], $11::text[])
                 AS m(size_id, delta, reason, order_id, acceptance_id, note)`,
       )}),
       ${events.appendCtes(
         LedgerSql.stockEvents({
           updated: 'updated',
           brandId: '$3',
           cause: { reason: '$12', orderId: '$13', returnId: '$14' },
         }),
       )}
       SELECT id, stock, ${events.written} AS written FROM updated`,
});

/** The one cause of a call's changes, which its stock events name; a call mixing causes is a bug. */
function causeOf(changes: StockChange[]): { reason: StockReason; orderId: number | null; returnId: number | null } {
  const [first] = changes;
  const cause = { reason: first.reason, orderId: first.orderId ?? null, returnId: first.returnId ?? null };
  const mixed = changes.some(
    (c) =>
      c.reason !== cause.reason || (c.orderId ?? null) !== cause.orderId || (c.returnId ?? null) !== cause.returnId,
  );
  if (mixed) throw new Error('one stock change of several causes: its stock events could name only one');
  return cause;
}

/** Each size's total change, sizes in id order: the order in which the ledger locks them. */
function totalsBySize(changes: Array<{ sizeId: number; delta: number }>): { sizeIds: number[]; deltas: number[] } {
  const perSize = new Map<number, number>();
  for (const change of changes) perSize.set(change.sizeId, (perSize.get(change.sizeId) ?? 0) + change.delta);
  const sizeIds = [...perSize.keys()].sort((a, b) => a - b);
  return { sizeIds, deltas: sizeIds.map((id) => perSize.get(id)!) };
}

/**
 * The only writer of `product_sizes.stock` (with LedgerSql, its parts). Every change is an
 * atomic `stock = stock + delta` with a ledger row beside it, in one statement in the caller's
 * transaction. Rows are locked in size-id order (FOR NO KEY UPDATE, which does not conflict with
 * the KEY SHARE locks that foreign keys to the sizes take), so concurrent orders on overlapping
 * sizes never deadlock.
 */
@Injectable()
export class StockLedger {
  private statement: Prepared | null = null;
  /** The transactions that changed stock already: a second change would record a second event a size. */
  private readonly changedIn = new WeakSet<EntityManager>();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly statements: PreparedStatements,
    private readonly events: DomainEvents,
  ) {
    events.keep(STOCK_EVENT_COLUMNS);
  }

  /** Built on first use: every subscriber to the events is in by then (DomainEvents). */
  private get applyChanges(): Prepared {
    return (this.statement ??= applyChanges(this.events.sql));
  }

  /** The brand's ledger rows, newest first; of one size when `sizeId` is given. */
  movements(brandId: number, sizeId: number | undefined, limit: number): Promise<MovementRow[]> {
    return this.db.query(MOVEMENTS, [brandId, sizeId ?? null, limit]);
  }

  /**
   * Applies the changes, all of one cause, and records each changed size's `stock.changed` event
   * with its net change; returns each touched size's new stock. A transaction calls it once: a
   * second call on the same size would record a second event for it (every flow does it once).
   */
  async apply(
    tx: EntityManager,
    brandId: number,
    changes: StockChange[],
    actor: LedgerActor,
  ): Promise<Map<number, number>> {
    const nonZero = changes.filter((c) => c.delta !== 0);
    if (nonZero.length === 0) return new Map();
    const { sizeIds, deltas } = totalsBySize(nonZero);
    const cause = causeOf(nonZero);
    if (tx.queryRunner?.isTransactionActive) {
      if (this.changedIn.has(tx))
        throw new Error('a second stock change in one transaction: one event a size is the rule');
      this.changedIn.add(tx);
    }
    const updated = await this.statements
      .runIn<{ id: number; stock: number; written: number }>(tx, this.applyChanges, [
        sizeIds,
        deltas,
        brandId,
        actor.kind,
        actor.id,
        nonZero.map((c) => c.sizeId),
        nonZero.map((c) => c.delta),
        nonZero.map((c) => c.reason),
        nonZero.map((c) => c.orderId ?? null),
        nonZero.map((c) => c.acceptanceId ?? null),
        nonZero.map((c) => c.note ?? null),
        cause.reason,
        cause.orderId,
        cause.returnId,
      ])
      .catch((error: unknown) => {
        // The caller's transaction rolls back with this error, so neither stock nor ledger moves.
        throw isOutOfRange(error) ? AppError.unprocessable(ErrorText.stockOutOfRange) : error;
      });
    this.events.recorded(tx, updated[0]?.written ?? 0);
    return new Map(updated.map((row) => [row.id, row.stock]));
  }
}
