import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { runPreparedIn, type Prepared } from '../database/prepared';
import type { StockReason } from './stock-movement.entity';

export interface StockChange {
  sizeId: number;
  delta: number;
  reason: StockReason;
  orderId?: number | null;
  acceptanceId?: number | null;
  note?: string | null;
}

export interface LedgerActor {
  kind: string | null;
  id: number | null;
}

const APPLY_CHANGES: Prepared = {
  name: 'apply_stock_changes',
  // The locking subquery hands rows to the update in id order, locking each as it goes, so every
  // transaction takes its size locks in the same order and overlapping orders cannot deadlock.
  text: `WITH updated AS (
         UPDATE product_sizes s SET stock = s.stock + d.delta
           FROM (SELECT id FROM product_sizes WHERE id = ANY($1::int[]) AND brand_id = $3 ORDER BY id FOR NO KEY UPDATE) AS l
                JOIN unnest($1::int[], $2::int[]) AS d(id, delta) ON d.id = l.id
          WHERE s.id = l.id
          RETURNING s.id, s.stock
       ), moved AS (
         INSERT INTO stock_movements (brand_id, size_id, delta, reason, order_id, acceptance_id, note, actor_kind, actor_id)
         SELECT $3, m.size_id, m.delta, m.reason, m.order_id, m.acceptance_id, m.note, $4, $5
           FROM unnest($6::int[], $7::int[], $8::text[], $9::int[], $10::int[], $11::text[])
                AS m(size_id, delta, reason, order_id, acceptance_id, note)
          WHERE EXISTS (SELECT 1 FROM updated u WHERE u.id = m.size_id)
       )
       SELECT id, stock FROM updated`,
};

/**
 * The only writer of `product_sizes.stock`. Every change is an atomic `stock = stock + delta`
 * with a ledger row beside it, in one statement in the caller's transaction. Rows are locked in
 * size-id order (FOR NO KEY UPDATE, which does not conflict with the KEY SHARE locks that foreign
 * keys to the sizes take), so concurrent orders on overlapping sizes never deadlock.
 */
@Injectable()
export class StockLedger {
  /** Applies the changes; returns each touched size's new stock. */
  async apply(tx: EntityManager, brandId: number, changes: StockChange[], actor: LedgerActor): Promise<Map<number, number>> {
    const nonZero = changes.filter((c) => c.delta !== 0);
    if (nonZero.length === 0) return new Map();
    const perSize = new Map<number, number>();
    for (const change of nonZero) perSize.set(change.sizeId, (perSize.get(change.sizeId) ?? 0) + change.delta);
    const sizeIds = [...perSize.keys()].sort((a, b) => a - b);

    const updated = await runPreparedIn<{ id: number; stock: number }>(tx, APPLY_CHANGES, [
      sizeIds,
      sizeIds.map((id) => perSize.get(id)),
      brandId,
      actor.kind,
      actor.id,
      nonZero.map((c) => c.sizeId),
      nonZero.map((c) => c.delta),
      nonZero.map((c) => c.reason),
      nonZero.map((c) => c.orderId ?? null),
      nonZero.map((c) => c.acceptanceId ?? null),
      nonZero.map((c) => c.note ?? null),
    ]);
    if (updated.length !== sizeIds.length) {
      // Callers resolve sizes within the brand first; a mismatch here is a bug, and the transaction must not commit.
      throw new Error(`stock change touched ${updated.length} of ${sizeIds.length} sizes of brand ${brandId}`);
    }
    return new Map(updated.map((row) => [row.id, row.stock]));
  }
}
