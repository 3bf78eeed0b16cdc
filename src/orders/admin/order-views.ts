import type { OrderEntity } from '../order.entity';

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
    updatedAt: order.updatedAt.toISOString(),
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
    personalDataErasedAt: order.personalDataErasedAt?.toISOString() ?? null,
    carrierRegistrationFailedAt: order.carrierRegistrationFailedAt?.toISOString() ?? null,
    items,
  };
}
