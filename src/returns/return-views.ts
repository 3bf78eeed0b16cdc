import type { ReturnResponse } from './dto/return.responses';
import type { ReturnItemRow, ReturnRow } from './returns.repository';

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** A return with the wire names of contract §9. */
export function toReturnView(row: ReturnRow, items: ReturnItemRow[]): ReturnResponse {
  return {
    id: row.id,
    returnNumber: row.return_number,
    orderId: row.order_id,
    orderNumber: row.order_number,
    externalReturnId: row.external_return_id,
    origin: row.origin,
    status: row.status,
    reasonCode: row.reason_code,
    reasonNote: row.reason_note,
    items: items.map((item) => ({
      id: item.id,
      orderItemId: item.order_item_id,
      productId: item.product_id,
      sizeId: item.size_id,
      article: item.article,
      size: item.size,
      quantity: item.quantity,
      receivedQuantity: item.received_quantity,
      restockedQuantity: item.restocked_quantity,
      priceKopeks: Number(item.price_kopeks),
    })),
    refundKopeks: Number(row.refund_kopeks),
    refundStatus: row.refund_status,
    createdAt: row.created_at.toISOString(),
    approvedAt: iso(row.approved_at),
    receivedAt: iso(row.received_at),
    closedAt: iso(row.closed_at),
    canceledAt: iso(row.canceled_at),
  };
}
