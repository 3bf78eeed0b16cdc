import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '../database/transactions';
import type { OrderStatus } from '../orders/order.entity';
import { PERSONAL_DATA_MAP } from './personal-data-map';
import { buyerValues, scrubbedAnswer } from './stored-answer-scrub';

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
 * A buyer's orders in a brand ($1 brand, then the match's values): `locked`, those in a final
 * state, locked (its last parameter the final statuses); `others`, the rest (its last the locked
 * ids); `unerased`, the ids of those not anonymised. Each finds them through the brand's index of
 * the phone or e-mail (migration DataThatGrows), whatever the brand's number of orders.
 */
export function buyerOrdersSql(match: BuyerMatch): {
  locked: string;
  others: string;
  unerased: string;
  values: unknown[];
} {
  const { sql, values } = matchSql(match);
  const last = values.length + 2;
  return {
    locked: `SELECT o.id, o.status, o.personal_data_erased_at FROM orders o
              WHERE o.brand_id = $1 AND ${sql} AND o.status = ANY($${last}::varchar[]) ORDER BY o.id FOR UPDATE`,
    others: `SELECT o.id, o.status, o.personal_data_erased_at FROM orders o
              WHERE o.brand_id = $1 AND ${sql} AND o.id <> ALL ($${last}::int[]) ORDER BY o.id`,
    unerased: `SELECT o.id FROM orders o WHERE o.brand_id = $1 AND ${sql} AND o.personal_data_erased_at IS NULL ORDER BY o.id`,
    values,
  };
}

/** The retention sweep's claim ($1 batch): finished orders past their brand's retention, locked, skipping those another instance holds. */
export const CLAIM_DUE_FOR_RETENTION = `SELECT o.id, o.brand_id FROM orders o
   JOIN personal_data_retention r ON r.brand_id = o.brand_id AND r.days IS NOT NULL
  WHERE o.personal_data_erased_at IS NULL AND o.status IN ('completed', 'returned', 'cancelled')
    AND o.updated_at <= now() - make_interval(days => r.days)
  ORDER BY o.updated_at LIMIT $1 FOR UPDATE OF o SKIP LOCKED`;

/** The stored answers (locked) of the brand's keys that are about the orders $1. */
export const STORED_ANSWERS_OF_ORDERS = `WITH their_brands AS (SELECT DISTINCT brand_id FROM orders WHERE id = ANY($1::int[])),
     scopes AS (SELECT 'integration_key:' || k.id AS scope FROM integration_keys k
                 WHERE k.brand_id IN (SELECT brand_id FROM their_brands)
                UNION ALL
                SELECT 'site_key:' || sk.id FROM site_keys sk JOIN production_sites ps ON ps.id = sk.site_id
                 WHERE ps.brand_id IN (SELECT brand_id FROM their_brands))
SELECT t.scope, t.key, t.response_body FROM idempotency_keys t
 WHERE t.scope IN (SELECT scope FROM scopes) AND t.response_status IS NOT NULL
   AND jsonb_path_exists(t.response_body,
         'lax $.** ? (@.orderId == $ids[*] || @.order.id == $ids[*] || (exists(@.recipient) && @.id == $ids[*]))',
         jsonb_build_object('ids', to_jsonb($1::int[])))
 ORDER BY t.scope, t.key FOR UPDATE OF t`;

/** Empties one copy's columns (the map's) for the orders $1. */
export const anonymiseSql = (copy: (typeof PERSONAL_DATA_MAP)[number]) =>
  `UPDATE ${copy.table} AS t SET ${copy.columns.map(({ column, anonymised }) => `${column} = ${anonymised}`).join(', ')} WHERE ${copy.rowsOf}`;

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
    const statements = buyerOrdersSql(match);
    type Row = { id: number; status: OrderStatus; personal_data_erased_at: Date | null };
    const locked: Row[] = await tx.query(statements.locked, [brandId, ...statements.values, FINAL_STATUSES]);
    const lockedIds = locked.map((row) => row.id);
    const others: Row[] = await tx.query(statements.others, [brandId, ...statements.values, lockedIds]);
    return [...locked, ...others]
      .sort((a, b) => a.id - b.id)
      .map((row) => ({ id: row.id, status: row.status, erased: row.personal_data_erased_at !== null }));
  }

  /** The ids of the brand's orders of that buyer not yet anonymised, oldest first. */
  async buyerOrderIds(brandId: number, match: BuyerMatch): Promise<number[]> {
    const statements = buyerOrdersSql(match);
    const rows: Array<{ id: number }> = await this.db.query(statements.unerased, [brandId, ...statements.values]);
    return rows.map((row) => row.id);
  }

  /**
   * Orders in a final state, not anonymised, whose last change of state is at least their brand's
   * retention old: at most `limit`, oldest first, locked, skipping those another instance holds
   * (each is anonymised by one of them). ix_orders_retention_due holds only such orders, so a
   * sweep does not walk the brand's orders anonymised before.
   */
  async lockDueForRetention(tx: Tx, limit: number): Promise<Array<{ id: number; brandId: number }>> {
    const rows: Array<{ id: number; brand_id: number }> = await tx.query(CLAIM_DUE_FOR_RETENTION, [limit]);
    return rows.map((row) => ({ id: row.id, brandId: row.brand_id }));
  }

  /**
   * Empties every column of the map for these orders, in every table that holds a copy, then
   * every text of the brand's stored answers that quotes what those columns held.
   */
  async anonymise(tx: Tx, orderIds: number[]): Promise<void> {
    if (orderIds.length === 0) return;
    const held = await this.heldValues(tx, orderIds);
    for (const copy of PERSONAL_DATA_MAP) await tx.query(anonymiseSql(copy), [orderIds]);
    await this.scrubStoredAnswers(tx, orderIds, held);
  }

  /**
   * Every text the map's text columns hold for these orders, before they are emptied: the buyer's
   * own words and numbers. A JSON column's strings are left out: a job's payload names statuses and
   * kinds, which an answer shares with every other order (a copied error is in its text column too).
   */
  private async heldValues(tx: Tx, orderIds: number[]): Promise<string[]> {
    const values = new Set<string>();
    for (const copy of PERSONAL_DATA_MAP.filter((c) => !c.storedAnswers)) {
      const texts = copy.columns
        .map(({ column }) => `SELECT to_jsonb(t.${column}) AS v FROM ${copy.table} t WHERE ${copy.rowsOf}`)
        .join(' UNION ALL ');
      const rows: Array<{ text: string }> = await tx.query(
        `SELECT DISTINCT c.v #>> '{}' AS text FROM (${texts}) c WHERE jsonb_typeof(c.v) = 'string'`,
        [orderIds],
      );
      for (const { text } of rows) if (text.trim() !== '') values.add(text.trim());
    }
    return [...values];
  }

  /**
   * The stored answers about these orders (of their brand's integration and site keys: an answer
   * naming the order as `orderId` or `order.id` at any depth, or an order answered whole), each
   * text that quotes what the orders held emptied (the rule of stored-answer-scrub.ts, which
   * decides on each text). Another order's answers are not touched, whatever they share with these.
   */
  private async scrubStoredAnswers(tx: Tx, orderIds: number[], held: string[]): Promise<void> {
    if (held.length === 0) return;
    const buyer = buyerValues(held);
    const rows: Array<{ scope: string; key: string; response_body: unknown }> = await tx.query(
      STORED_ANSWERS_OF_ORDERS,
      [orderIds],
    );
    for (const row of rows) {
      const { answer, changed } = scrubbedAnswer(row.response_body, buyer);
      if (!changed) continue;
      await tx.query(`UPDATE idempotency_keys SET response_body = $3::jsonb WHERE scope = $1 AND key = $2`, [
        row.scope,
        row.key,
        JSON.stringify(answer),
      ]);
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
