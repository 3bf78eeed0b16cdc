/**
 * What an order tells the follow-up jobs that run after its commit (notifications/): the data of
 * its mails and the request that registers its shipment. Orders defines them, so the jobs depend
 * on orders and not the other way round.
 */
export interface OrderMailData {
  brandName: string;
  orderNumber: string;
  hash: string;
  recipientName: string;
  totalKopeks: number;
  items: Array<{ article: string; size: string; quantity: number; lineTotalKopeks: number }>;
  deliveryCity: string;
  pvzAddress: string | null;
  trackingNumber: string | null;
}

/** The carrier's shipment request (contract §7), as OrderFulfilment reads it from the order. */
export interface ShipmentRequest {
  orderNumber: string;
  recipient: { fullName: string; phone: string; email?: string };
  delivery: { city: string; cityCode?: number; pvzCode?: string; pvzAddress?: string };
  items: Array<{ article: string; size: string; quantity: number }>;
}
