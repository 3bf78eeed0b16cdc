import type { OrderEntity, OrderSource, OrderStatus, PaymentStatus } from './order.entity';

export interface OrderItemView {
  id: number;
  productId: number;
  sizeId: number;
  article: string;
  storefrontArticle: string | null;
  size: string;
  quantity: number;
  priceKopeks: number;
  lineTotalKopeks: number;
  returnedQuantity: number;
}

/** The full order with the wire names of contract §6. */
export function toOrderView(order: OrderEntity, items: OrderItemView[]) {
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    hash: order.hash,
    source: order.source,
    partnerOrderId: order.partnerOrderId,
    status: order.status,
    paymentStatus: order.paymentStatus,
    deliveryStatus: order.deliveryStatus,
    stockShortage: order.stockShortage,
    orderedAt: order.orderedAt.toISOString(),
    createdAt: order.createdAt.toISOString(),
    itemsTotalKopeks: order.itemsTotalKopeks,
    deliveryCostKopeks: order.deliveryCostKopeks,
    totalKopeks: order.totalKopeks,
    promoCode: order.promoCode,
    comment: order.comment,
    recipient: {
      fullName: order.recipientFullName,
      surname: order.recipientSurname,
      firstName: order.recipientFirstName,
      patronymic: order.recipientPatronymic,
      phone: order.recipientPhone,
      email: order.recipientEmail,
    },
    delivery: {
      city: order.deliveryCity,
      cityCode: order.deliveryCityCode,
      pvzCode: order.deliveryPvzCode,
      pvzAddress: order.deliveryPvzAddress,
    },
    carrierOrderUuid: order.carrierOrderUuid,
    carrierTrackingNumber: order.carrierTrackingNumber,
    waybillUrl: order.waybillUrl,
    paidAt: order.paidAt?.toISOString() ?? null,
    carrierRegistrationFailedAt: order.carrierRegistrationFailedAt?.toISOString() ?? null,
    items,
  };
}

export interface OrderSummaryRow {
  id: number;
  order_number: string;
  source: OrderSource;
  partner_order_id: string | null;
  status: OrderStatus;
  payment_status: PaymentStatus;
  delivery_status: string | null;
  stock_shortage: boolean;
  recipient_full_name: string;
  total_kopeks: string;
  ordered_at: Date;
  created_at: Date;
}

/** One line of the order list. */
export function toOrderSummary(row: OrderSummaryRow) {
  return {
    id: row.id,
    orderNumber: row.order_number,
    source: row.source,
    partnerOrderId: row.partner_order_id,
    status: row.status,
    paymentStatus: row.payment_status,
    deliveryStatus: row.delivery_status,
    stockShortage: row.stock_shortage,
    recipientName: row.recipient_full_name,
    totalKopeks: Number(row.total_kopeks),
    orderedAt: row.ordered_at.toISOString(),
    createdAt: row.created_at.toISOString(),
  };
}
