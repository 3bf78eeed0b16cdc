import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResolvedSize } from '../catalog/catalog-matcher';
import type { DeliveryDto } from './dto/delivery.dto';
import type { RecipientDto } from './dto/recipient.dto';
import type { OrderSource, OrderStatus, PaymentStatus } from './order.entity';
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

/** Writes an order and its lines in two statements, inside the caller's transaction. */
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
    const inserted: Array<{ id: number; order_number: string; hash: string }> = await tx.query(
      `INSERT INTO orders (brand_id, order_number, hash, source, partner_order_id, status, payment_status, ordered_at,
                           items_total_kopeks, delivery_cost_kopeks, total_kopeks, promo_code, comment,
                           recipient_full_name, recipient_surname, recipient_first_name, recipient_patronymic,
                           recipient_phone, recipient_phone_normalized, recipient_email,
                           delivery_city, delivery_city_code, delivery_pvz_code, delivery_pvz_address,
                           carrier_order_uuid, carrier_tracking_number, waybill_url, request_fingerprint)
       VALUES ($1, nextval('order_number_seq')::text, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
               $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27)
       ON CONFLICT (brand_id, partner_order_id) DO NOTHING
       RETURNING id, order_number, hash`,
      [
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
      ],
    );
    const row = inserted[0];
    if (!row) return null;
    await tx.query(
      `INSERT INTO order_items (order_id, line, product_id, size_id, article, storefront_article, size, quantity, price_kopeks, line_total_kopeks)
       SELECT $1, l.line, l.product_id, l.size_id, l.article, l.storefront_article, l.size, l.quantity, l.price, l.price * l.quantity
         FROM unnest($2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::int[], $9::bigint[])
              AS l(line, product_id, size_id, article, storefront_article, size, quantity, price)`,
      [
        row.id,
        order.lines.map((_, i) => i + 1),
        order.lines.map((l) => l.productId),
        order.lines.map((l) => l.sizeId),
        order.lines.map((l) => l.article),
        order.lines.map((l) => l.storefrontArticle),
        order.lines.map((l) => l.size),
        order.lines.map((l) => l.quantity),
        order.lines.map((l) => l.priceKopeks),
      ],
    );
    return { id: row.id, orderNumber: row.order_number, hash: row.hash, totalKopeks: itemsTotal + deliveryCost };
  }
}
