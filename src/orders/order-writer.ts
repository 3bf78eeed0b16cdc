import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { ResolvedSize } from '../catalog/catalog-matcher';
import { LedgerSql, totalsBySize, type LedgerActor } from '../inventory/stock-ledger';
import { enqueueSql } from '../notifications/outbox';
import type { DeliveryDto } from './dto/delivery.dto';
import type { RecipientDto } from './dto/recipient.dto';
import type { OrderSource, OrderStatus, PaymentStatus } from './order.entity';
import { runPrepared, runPreparedIn, type Prepared } from '../database/prepared';
import { newOrderHash } from './order-identity';
import { normalizePhone, parseFullName } from './recipient-parsing';

export interface PricedLine extends ResolvedSize {
  quantity: number;
  priceKopeks: number;
}

export interface NewOrder {
  brandId: number;
  source: OrderSource;
  partnerOrderId: string | null;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  orderedAt: Date;
  recipient: RecipientDto;
  delivery?: DeliveryDto;
  carrierOrderUuid?: string;
  carrierTrackingNumber?: string;
  waybillUrl?: string;
  promoCode?: string;
  comment?: string;
  requestFingerprint?: string;
  lines: PricedLine[];
}

export interface OrderRef {
  id: number;
  orderNumber: string;
  hash: string;
  totalKopeks: number;
}

const ORDER_COLUMNS = `brand_id, order_number, hash, source, partner_order_id, status, payment_status, ordered_at,
  items_total_kopeks, delivery_cost_kopeks, total_kopeks, promo_code, comment,
  recipient_full_name, recipient_surname, recipient_first_name, recipient_patronymic,
  recipient_phone, recipient_phone_normalized, recipient_email,
  delivery_city, delivery_city_code, delivery_pvz_code, delivery_pvz_address,
  carrier_order_uuid, carrier_tracking_number, waybill_url, request_fingerprint`;
/** $1..$27: orderValues(). */
const ORDER_VALUES = `$1, nextval('order_number_seq')::text, ${Array.from({ length: 26 }, (_, i) => `$${i + 2}`).join(', ')}`;
/** The lines of the order in `created`, from lineArrays() at $first..$first+7. */
const insertLines = (first: number) => {
  const [line, productId, sizeId, article, storefrontArticle, size, quantity, price] = Array.from({ length: 8 }, (_, i) => `$${first + i}`);
  return `INSERT INTO order_items (order_id, line, product_id, size_id, article, storefront_article, size, quantity, price_kopeks, line_total_kopeks)
         SELECT created.id, l.line, l.product_id, l.size_id, l.article, l.storefront_article, l.size, l.quantity, l.price, l.price * l.quantity
           FROM created,
                unnest(${line}::int[], ${productId}::int[], ${sizeId}::int[], ${article}::text[], ${storefrontArticle}::text[],
                       ${size}::text[], ${quantity}::int[], ${price}::bigint[])
                AS l(line, product_id, size_id, article, storefront_article, size, quantity, price)`;
};

/** An order of brand `brand` by its partnerOrderId, with the fingerprint of the request that created it. */
const earlierOrderSql = (brand: string, partnerOrderId: string) =>
  `SELECT id, order_number, hash, total_kopeks, request_fingerprint FROM orders WHERE brand_id = ${brand} AND partner_order_id = ${partnerOrderId}`;

const FIND_BY_PARTNER_ID: Prepared = { name: 'find_order_by_partner_id', text: earlierOrderSql('$1', '$2') };

const INSERT_ORDER: Prepared = {
  name: 'insert_order_with_lines',
  text: `WITH created AS (
         INSERT INTO orders (${ORDER_COLUMNS})
         VALUES (${ORDER_VALUES})
         ON CONFLICT (brand_id, partner_order_id) DO NOTHING
         RETURNING id, order_number, hash
       ), lines AS (${insertLines(28)})
       SELECT id, order_number, hash FROM created`,
};

/**
 * A paid order with its stock, in one statement and so in one implicit transaction. An order the
 * brand already has with this partnerOrderId is read instead (the repeat check, in the same round
 * trip), and then nothing is locked or written. Otherwise the sizes are locked first (in the
 * ledger's order) and their stock read, the order is written with stockShortage already known,
 * and only if it was written (not a twin that committed meanwhile) do the stock, the ledger rows
 * and the acceptance mail follow. One round trip instead of a lookup, BEGIN, order, stock, mail,
 * COMMIT.
 */
const ACCEPT_WITH_STOCK: Prepared = {
  name: 'accept_order_with_stock',
  text: `WITH earlier AS (${earlierOrderSql('$1', '$4')}),
       locked AS (${LedgerSql.lockSizes('$36', 'NOT EXISTS (SELECT 1 FROM earlier)')}),
       created AS (
         INSERT INTO orders (${ORDER_COLUMNS}, stock_shortage, stock_deducted_at)
         SELECT ${ORDER_VALUES},
                EXISTS (SELECT 1 FROM locked l JOIN unnest($36::int[], $37::int[]) AS d(id, delta) ON d.id = l.id
                         WHERE l.stock + d.delta < 0),
                now()
          WHERE NOT EXISTS (SELECT 1 FROM earlier)
         ON CONFLICT (brand_id, partner_order_id) DO NOTHING
         RETURNING id, order_number, hash
       ),
       updated AS (${LedgerSql.addDeltas({ locked: 'locked', sizeIds: '$36', deltas: '$37', brandId: '$1', condition: 'EXISTS (SELECT 1 FROM created)' })}),
       lines AS (${insertLines(28)}),
       moved AS (${LedgerSql.recordMovements(
         `SELECT $1::int, m.size_id, -m.quantity, 'order', created.id, NULL::int, NULL::text, $38::text, $39::int
            FROM created, unnest($30::int[], $34::int[]) AS m(size_id, quantity)`,
       )}),
       mail AS (${enqueueSql(
         `SELECT 'mail.order_accepted', jsonb_build_object('orderId', created.id), 'order_accepted:' || created.id FROM created WHERE $40::boolean`,
       )})
       SELECT true AS created, id, order_number, hash, NULL::bigint AS total_kopeks, NULL::text AS request_fingerprint FROM created
       UNION ALL
       SELECT false, id, order_number, hash, total_kopeks, request_fingerprint FROM earlier`,
};

/** Writes an order and its lines (and, for a paid order, its stock) in one statement. */
@Injectable()
export class OrderWriter {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Returns null when the brand already has an order with this partnerOrderId: the unique
   * constraint decides, so concurrent twins cannot both be written.
   */
  async insert(tx: EntityManager, order: NewOrder): Promise<OrderRef | null> {
    const inserted = await runPreparedIn<InsertedRow>(tx, INSERT_ORDER, [...orderValues(order), ...lineArrays(order)]);
    return refOf(order, inserted[0]);
  }

  /**
   * A paid order, its stock deducted through the ledger, and its acceptance mail when asked for,
   * all or nothing; or the order the brand already has with this partnerOrderId. Null when a twin
   * committed while this one was being written (read it with a new snapshot).
   */
  async insertPaidWithStock(
    order: NewOrder,
    actor: LedgerActor,
    options: { acceptanceMail: boolean },
  ): Promise<{ created: OrderRef } | { earlier: EarlierOrder } | null> {
    const { sizeIds, deltas } = totalsBySize(order.lines.map((line) => ({ sizeId: line.sizeId, delta: -line.quantity })));
    const rows = await runPrepared<EarlierRow & { created: boolean }>(this.db, ACCEPT_WITH_STOCK, [
      ...orderValues(order),
      ...lineArrays(order),
      sizeIds,
      deltas,
      actor.kind,
      actor.id,
      options.acceptanceMail,
    ]);
    const row = rows[0];
    if (!row) return null;
    return row.created ? { created: refOf(order, row)! } : { earlier: earlierOrderOf(row) };
  }

  /** The brand's order with this partnerOrderId, read with a new snapshot. */
  async findByPartnerId(brandId: number, partnerOrderId: string): Promise<EarlierOrder | null> {
    const row = (await runPrepared<EarlierRow>(this.db, FIND_BY_PARTNER_ID, [brandId, partnerOrderId]))[0];
    return row ? earlierOrderOf(row) : null;
  }
}

/** An order found by its partnerOrderId, with the fingerprint of the request that created it. */
export interface EarlierOrder extends OrderRef {
  fingerprint: string | null;
}

interface InsertedRow {
  id: number;
  order_number: string;
  hash: string;
}

interface EarlierRow extends InsertedRow {
  total_kopeks: string;
  request_fingerprint: string | null;
}

function earlierOrderOf(row: EarlierRow): EarlierOrder {
  return {
    id: row.id,
    orderNumber: row.order_number,
    hash: row.hash,
    totalKopeks: Number(row.total_kopeks),
    fingerprint: row.request_fingerprint,
  };
}

function totals(order: NewOrder) {
  const items = order.lines.reduce((sum, line) => sum + line.priceKopeks * line.quantity, 0);
  const delivery = order.delivery?.deliveryCostKopeks ?? 0;
  return { items, delivery, total: items + delivery };
}

function refOf(order: NewOrder, row: InsertedRow | undefined): OrderRef | null {
  return row ? { id: row.id, orderNumber: row.order_number, hash: row.hash, totalKopeks: totals(order).total } : null;
}

/** $1..$27 of both statements. */
function orderValues(order: NewOrder): unknown[] {
  const money = totals(order);
  const name = parseFullName(order.recipient.fullName);
  return [
    order.brandId,
    newOrderHash(),
    order.source,
    order.partnerOrderId,
    order.status,
    order.paymentStatus,
    order.orderedAt,
    money.items,
    money.delivery,
    money.total,
    order.promoCode ?? null,
    order.comment ?? null,
    order.recipient.fullName.trim(),
    name.surname,
    name.firstName,
    name.patronymic,
    order.recipient.phone,
    normalizePhone(order.recipient.phone),
    order.recipient.email?.trim().toLowerCase() ?? null,
    order.delivery?.city ?? '',
    order.delivery?.cityCode ?? null,
    order.delivery?.pvzCode ?? null,
    order.delivery?.pvzAddress ?? null,
    order.carrierOrderUuid ?? null,
    order.carrierTrackingNumber ?? null,
    order.waybillUrl ?? null,
    order.requestFingerprint ?? null,
  ];
}

/** The lines as eight parallel arrays, for unnest. */
function lineArrays(order: NewOrder): unknown[] {
  return [
    order.lines.map((_, i) => i + 1),
    order.lines.map((l) => l.productId),
    order.lines.map((l) => l.sizeId),
    order.lines.map((l) => l.article),
    order.lines.map((l) => l.storefrontArticle),
    order.lines.map((l) => l.size),
    order.lines.map((l) => l.quantity),
    order.lines.map((l) => l.priceKopeks),
  ];
}
