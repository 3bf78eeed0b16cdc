import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '../database/transactions';
import { DomainEvents } from '../domain-events/domain-events';
import { eventDataOf, type EventPart } from '../domain-events/domain-events.sql';
import type { ReturnEventData } from './dto/return-event-data';
import type { ReasonCode, RefundStatus, ReturnOrigin, ReturnStatus } from './return-states';
import { returnListStatements, type ReturnListFilter } from './return-list.query';

export interface ReturnRow {
  id: number;
  brand_id: number;
  return_number: string;
  order_id: number;
  order_number: string;
  external_return_id: string;
  origin: ReturnOrigin;
  status: ReturnStatus;
  reason_code: ReasonCode;
  reason_note: string | null;
  refund_kopeks: string;
  refund_status: RefundStatus;
  created_at: Date;
  approved_at: Date | null;
  received_at: Date | null;
  closed_at: Date | null;
  canceled_at: Date | null;
}

export interface ReturnItemRow {
  id: number;
  return_id: number;
  order_item_id: number;
  product_id: number;
  size_id: number;
  article: string;
  size: string;
  quantity: number;
  received_quantity: number;
  restocked_quantity: number;
  price_kopeks: string;
}

export interface NewReturn {
  brandId: number;
  orderId: number;
  orderNumber: string;
  externalReturnId: string;
  origin: ReturnOrigin;
  status: ReturnStatus;
  reasonCode: ReasonCode;
  reasonNote: string | null;
  refundKopeks: number;
  refundStatus: RefundStatus;
  items: Array<{
    orderItemId: number;
    productId: number;
    sizeId: number;
    article: string;
    size: string;
    quantity: number;
    priceKopeks: number;
  }>;
}

/** The timestamp column each status sets when a return moves to it. */
const STAMP: Partial<Record<ReturnStatus, string>> = {
  approved: 'approved_at',
  declined: 'declined_at',
  received: 'received_at',
  closed: 'closed_at',
  canceled: 'canceled_at',
};

export const COLUMNS = `id, brand_id, return_number, order_id, order_number, external_return_id, origin, status, reason_code,
  reason_note, refund_kopeks, refund_status, created_at, approved_at, received_at, closed_at, canceled_at`;

/** The event of a change to a return ($1 the return, $2 the type), from the return as the change left it. */
export const RETURN_EVENT: EventPart = {
  subject: 'return',
  brandId: 'r.brand_id',
  subjectId: 'r.id',
  type: '$2',
  data: eventDataOf<ReturnEventData>({
    returnId: 'r.id',
    returnNumber: 'r.return_number',
    orderId: 'r.order_id',
    externalReturnId: 'r.external_return_id',
    origin: 'r.origin',
    status: 'r.status',
    refundStatus: 'r.refund_status',
  }),
  from: '(SELECT * FROM returns WHERE id = $1) AS r',
};

/** The returns, return_items and return_numbers tables. */
@Injectable()
export class ReturnsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: DomainEvents,
  ) {}

  /**
   * Writes the return and its lines, numbered after the brand's last return (the counter row's
   * lock serializes numbering per brand). Null when the brand already has this externalReturnId
   * (ON CONFLICT: the unique key decides, also between concurrent requests).
   */
  async insert(tx: Tx, r: NewReturn): Promise<number | null> {
    const number: Array<{ last: number }> = await tx.query(
      `INSERT INTO return_numbers (brand_id, last) VALUES ($1, 1)
       ON CONFLICT (brand_id) DO UPDATE SET last = return_numbers.last + 1 RETURNING last`,
      [r.brandId],
    );
    const inserted: Array<{ id: number }> = await tx.query(
      `INSERT INTO returns (brand_id, return_number, order_id, order_number, external_return_id, origin, status,
                            reason_code, reason_note, refund_kopeks, refund_status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (brand_id, external_return_id) DO NOTHING RETURNING id`,
      [
        r.brandId,
        `R-${String(number[0].last).padStart(6, '0')}`,
        r.orderId,
        r.orderNumber,
        r.externalReturnId,
        r.origin,
        r.status,
        r.reasonCode,
        r.reasonNote,
        r.refundKopeks,
        r.refundStatus,
      ],
    );
    const id = inserted[0]?.id;
    if (id === undefined) return null;
    await tx.query(
      `INSERT INTO return_items (return_id, order_item_id, product_id, size_id, article, size, quantity, price_kopeks)
       SELECT $1, * FROM unnest($2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::int[], $8::bigint[])`,
      [
        id,
        r.items.map((i) => i.orderItemId),
        r.items.map((i) => i.productId),
        r.items.map((i) => i.sizeId),
        r.items.map((i) => i.article),
        r.items.map((i) => i.size),
        r.items.map((i) => i.quantity),
        r.items.map((i) => i.priceKopeks),
      ],
    );
    return id;
  }

  async byExternalId(brandId: number, externalReturnId: string, tx?: Tx): Promise<ReturnRow | null> {
    const rows: ReturnRow[] = await (tx ?? this.db).query(
      `SELECT ${COLUMNS} FROM returns WHERE brand_id = $1 AND external_return_id = $2`,
      [brandId, externalReturnId],
    );
    return rows[0] ?? null;
  }

  async byId(returnId: number, tx?: Tx): Promise<ReturnRow | null> {
    const rows: ReturnRow[] = await (tx ?? this.db).query(`SELECT ${COLUMNS} FROM returns WHERE id = $1`, [returnId]);
    return rows[0] ?? null;
  }

  async lockById(tx: Tx, returnId: number): Promise<ReturnRow | null> {
    const rows: ReturnRow[] = await tx.query(`SELECT ${COLUMNS} FROM returns WHERE id = $1 FOR UPDATE`, [returnId]);
    return rows[0] ?? null;
  }

  itemsOf(returnIds: number[], tx?: Tx): Promise<ReturnItemRow[]> {
    return (tx ?? this.db).query(
      `SELECT id, return_id, order_item_id, product_id, size_id, article, size, quantity, received_quantity,
              restocked_quantity, price_kopeks
         FROM return_items WHERE return_id = ANY($1::int[]) ORDER BY id`,
      [returnIds],
    );
  }

  /** Units of each of the order's lines held by its returns that are not declined or canceled. */
  async heldUnits(tx: Tx, orderId: number): Promise<Map<number, number>> {
    const rows: Array<{ order_item_id: number; held: number }> = await tx.query(
      `SELECT i.order_item_id, sum(i.quantity)::int AS held
         FROM return_items i JOIN returns r ON r.id = i.return_id
        WHERE r.order_id = $1 AND r.status NOT IN ('declined', 'canceled')
        GROUP BY i.order_item_id`,
      [orderId],
    );
    return new Map(rows.map((row) => [row.order_item_id, row.held]));
  }

  /** A page of the brand's returns, newest first, and how many match (`before` aside). */
  async page(
    brandId: number,
    filter: ReturnListFilter & { limit: number; offset: number },
  ): Promise<{ rows: ReturnRow[]; total: number }> {
    const list = returnListStatements(COLUMNS, filter);
    const [rows, count] = await Promise.all([
      this.db.query<ReturnRow[]>(list.page, [brandId, filter.limit, filter.offset, ...list.values]),
      this.db.query<Array<{ n: number }>>(list.total, [brandId, ...list.totalValues]),
    ]);
    return { rows, total: count[0].n };
  }

  /** Moves the return, stamping the status's time; `reasonNote` replaces the note when given. */
  async setStatus(tx: Tx, returnId: number, status: ReturnStatus, reasonNote?: string): Promise<void> {
    const stamp = STAMP[status];
    await tx.query(
      `UPDATE returns SET status = $2, reason_note = COALESCE($3, reason_note)${stamp ? `, ${stamp} = now()` : ''}
        WHERE id = $1`,
      [returnId, status, reasonNote ?? null],
    );
  }

  async addReceived(tx: Tx, lines: Array<{ returnItemId: number; received: number; restocked: number }>) {
    await tx.query(
      `UPDATE return_items i SET received_quantity = i.received_quantity + u.received,
                                 restocked_quantity = i.restocked_quantity + u.restocked
         FROM unnest($1::int[], $2::int[], $3::int[]) AS u(id, received, restocked)
        WHERE i.id = u.id`,
      [lines.map((l) => l.returnItemId), lines.map((l) => l.received), lines.map((l) => l.restocked)],
    );
  }

  async setRefunded(tx: Tx, returnId: number, refundKopeks: number): Promise<void> {
    await tx.query(
      `UPDATE returns SET refund_status = 'refunded', refund_kopeks = $2, refunded_at = now() WHERE id = $1`,
      [returnId, refundKopeks],
    );
  }

  /** Appends an event of the return, with the state its row holds now (call after the change). */
  async appendEvent(tx: Tx, returnId: number, type: string): Promise<void> {
    await this.events.append(tx, RETURN_EVENT, [returnId, type]);
  }
}
