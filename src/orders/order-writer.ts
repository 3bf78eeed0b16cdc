import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResolvedSize } from '../catalog/catalog-matcher';
import type { DeliveryDto } from './dto/delivery.dto';
import type { RecipientDto } from './dto/recipient.dto';
import type { OrderSource, OrderStatus, PaymentStatus } from './order.entity';
import { runPreparedIn, type Prepared } from '../database/prepared';
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
  /** Set when the caller deducts the stock in the same transaction. */
  stockDeducted?: boolean;
  lines: PricedLine[];
}

export interface OrderRef {
  id: number;
  orderNumber: string;
  hash: string;
  totalKopeks: number;
}

const INSERT_ORDER: Prepared = {
  name: 'insert_order_with_lines',
  text: `WITH created AS (
         INSERT INTO orders (brand_id, order_number, hash, source, partner_order_id, status, payment_status, ordered_at,
                             items_total_kopeks, delivery_cost_kopeks, total_kopeks, promo_code, comment,
                             recipient_full_name, recipient_surname, recipient_first_name, recipient_patronymic,
                             recipient_phone, recipient_phone_normalized, recipient_email,
                             delivery_city, delivery_city_code, delivery_pvz_code, delivery_pvz_address,
                             carrier_order_uuid, carrier_tracking_number, waybill_url, request_fingerprint, stock_deducted_at)
         VALUES ($1, nextval('order_number_seq')::text, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
                 $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, CASE WHEN $28::boolean THEN now() END)
         ON CONFLICT (brand_id, partner_order_id) DO NOTHING
         RETURNING id, order_number, hash
       ), lines AS (
         INSERT INTO order_items (order_id, line, product_id, size_id, article, storefront_article, size, quantity, price_kopeks, line_total_kopeks)
         SELECT created.id, l.line, l.product_id, l.size_id, l.article, l.storefront_article, l.size, l.quantity, l.price, l.price * l.quantity
           FROM created,
                unnest($29::int[], $30::int[], $31::int[], $32::text[], $33::text[], $34::text[], $35::int[], $36::bigint[])
                AS l(line, product_id, size_id, article, storefront_article, size, quantity, price)
       )
       SELECT id, order_number, hash FROM created`,
};

/** Writes an order and its lines in one statement, inside the caller's transaction. */
@Injectable()
export class OrderWriter {
  /**
   * Returns null when the brand already has an order with this partnerOrderId: the unique
   * constraint decides, so concurrent twins cannot both be written.
   */
  async insert(tx: EntityManager, order: NewOrder): Promise<OrderRef | null> {
    const itemsTotal = order.lines.reduce((sum, line) => sum + line.priceKopeks * line.quantity, 0);
    const deliveryCost = order.delivery?.deliveryCostKopeks ?? 0;
    const name = parseFullName(order.recipient.fullName);
    // The order and its lines in one statement: one round trip, and no lines without their order.
    const inserted = await runPreparedIn<{ id: number; order_number: string; hash: string }>(tx, INSERT_ORDER, [
      order.brandId,
      newOrderHash(),
      order.source,
      order.partnerOrderId,
      order.status,
      order.paymentStatus,
      order.orderedAt,
      itemsTotal,
      deliveryCost,
      itemsTotal + deliveryCost,
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
      order.stockDeducted === true,
      order.lines.map((_, i) => i + 1),
      order.lines.map((l) => l.productId),
      order.lines.map((l) => l.sizeId),
      order.lines.map((l) => l.article),
      order.lines.map((l) => l.storefrontArticle),
      order.lines.map((l) => l.size),
      order.lines.map((l) => l.quantity),
      order.lines.map((l) => l.priceKopeks),
    ]);
    const row = inserted[0];
    if (!row) return null;
    return { id: row.id, orderNumber: row.order_number, hash: row.hash, totalKopeks: itemsTotal + deliveryCost };
  }
}
