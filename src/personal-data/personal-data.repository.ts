import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '../database/transactions';
import type { OrderStatus } from '../orders/order.entity';
import { PERSONAL_DATA_MAP } from './personal-data-map';

/** How a buyer is named: a phone (as sent and E.164), an e-mail, or one order. */
export type BuyerMatch =
  | { by: 'phone'; asSent: string; normalized: string | null }
  | { by: 'email'; email: string }
  | { by: 'orderId'; orderId: number };

export interface BuyerOrderRow {
  id: number;
  status: OrderStatus;
  erased: boolean;
}

export const FINAL_STATUSES: readonly OrderStatus[] = ['completed', 'returned', 'cancelled'];

/** The condition on an order row `o` for a match, from parameter `$2` on. */
function matchSql(match: BuyerMatch): { sql: string; values: unknown[] } {
  switch (match.by) {
    case 'phone':
      // The stored E.164 form finds the number however it was written; the text as sent finds one that is no valid number.
      return {
        sql: '((o.recipient_phone_normalized = $2 AND $2 IS NOT NULL) OR btrim(o.recipient_phone) = $3)',
        values: [match.normalized, match.asSent],
      };
    case 'email':
      return { sql: 'o.recipient_email = $2', values: [match.email] };
    case 'orderId':
      return { sql: 'o.id = $2', values: [match.orderId] };
  }
}

/**
 * The erasure's statements over the columns of the personal-data map (personal-data-map.ts), in
 * any table that holds a copy, and the brands' retention settings (personal_data_retention).
 * Orders' state and their events are OrderLifecycle's: this only empties the map's columns.
 */
@Injectable()
export class PersonalDataRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The brand of an order, or null when there is none. */
  async brandOfOrder(orderId: number): Promise<{ brandId: number } | null> {
    const rows: Array<{ brand_id: number }> = await this.db.query('SELECT brand_id FROM orders WHERE id = $1', [
      orderId,
    ]);
    return rows[0] ? { brandId: rows[0].brand_id } : null;
  }

  /**
   * The brand's orders of that buyer: those in a final state locked in id order (the order every
   * writer of several orders takes), so a carrier event on one of them waits or is waited for and
   * the status read is the one the erasure acts on (a row that left its final state meanwhile is
   * re-read as kept); the others read without a lock, so their payments and deliveries go on.
   */
  async lockBuyerOrders(tx: Tx, brandId: number, match: BuyerMatch): Promise<BuyerOrderRow[]> {
    const { sql, values } = matchSql(match);
    const final = values.length + 2;
    type Row = { id: number; status: OrderStatus; personal_data_erased_at: Date | null };
    const locked: Row[] = await tx.query(
      `SELECT o.id, o.status, o.personal_data_erased_at FROM orders o
        WHERE o.brand_id = $1 AND ${sql} AND o.status = ANY($${final}::varchar[]) ORDER BY o.id FOR UPDATE`,
      [brandId, ...values, FINAL_STATUSES],
    );
    const lockedIds = locked.map((row) => row.id);
    const others: Row[] = await tx.query(
      `SELECT o.id, o.status, o.personal_data_erased_at FROM orders o
        WHERE o.brand_id = $1 AND ${sql} AND o.id <> ALL ($${final}::int[]) ORDER BY o.id`,
      [brandId, ...values, lockedIds],
    );
    return [...locked, ...others]
      .sort((a, b) => a.id - b.id)
      .map((row) => ({ id: row.id, status: row.status, erased: row.personal_data_erased_at !== null }));
  }

  /** The ids of the brand's orders of that buyer not yet anonymised, oldest first. */
  async buyerOrderIds(brandId: number, match: BuyerMatch): Promise<number[]> {
    const { sql, values } = matchSql(match);
    const rows: Array<{ id: number }> = await this.db.query(
      `SELECT o.id FROM orders o WHERE o.brand_id = $1 AND ${sql} AND o.personal_data_erased_at IS NULL ORDER BY o.id`,
      [brandId, ...values],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Orders in a final state, not anonymised, whose last change of state is at least their brand's
   * retention old: at most `limit`, oldest first, locked, skipping those another instance holds
   * (each is anonymised by one of them). ix_orders_retention_due holds only such orders, so a
   * sweep does not walk the brand's orders anonymised before.
   */
  async lockDueForRetention(tx: Tx, limit: number): Promise<Array<{ id: number; brandId: number }>> {
    const rows: Array<{ id: number; brand_id: number }> = await tx.query(
      `SELECT o.id, o.brand_id FROM orders o
         JOIN personal_data_retention r ON r.brand_id = o.brand_id AND r.days IS NOT NULL
        WHERE o.personal_data_erased_at IS NULL AND o.status IN ('completed', 'returned', 'cancelled')
          AND o.updated_at <= now() - make_interval(days => r.days)
        ORDER BY o.updated_at LIMIT $1 FOR UPDATE OF o SKIP LOCKED`,
      [limit],
    );
    return rows.map((row) => ({ id: row.id, brandId: row.brand_id }));
  }

  /** Empties every column of the map for these orders, in every table that holds a copy. */
  async anonymise(tx: Tx, orderIds: number[]): Promise<void> {
    if (orderIds.length === 0) return;
    for (const copy of PERSONAL_DATA_MAP) {
      const set = copy.columns.map(({ column, anonymised }) => `${column} = ${anonymised}`).join(', ');
      await tx.query(`UPDATE ${copy.table} AS t SET ${set} WHERE ${copy.rowsOf}`, [orderIds]);
    }
  }

  async retentionDays(brandId: number): Promise<number | null> {
    const rows: Array<{ days: number | null }> = await this.db.query(
      'SELECT days FROM personal_data_retention WHERE brand_id = $1',
      [brandId],
    );
    return rows[0]?.days ?? null;
  }

  async setRetentionDays(tx: Tx, brandId: number, days: number | null): Promise<void> {
    await tx.query(
      `INSERT INTO personal_data_retention (brand_id, days) VALUES ($1, $2)
       ON CONFLICT (brand_id) DO UPDATE SET days = EXCLUDED.days, updated_at = now()`,
      [brandId, days],
    );
  }
}
