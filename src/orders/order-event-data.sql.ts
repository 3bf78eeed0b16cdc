import { eventDataOf } from '../domain-events/domain-events.sql';
import type { OrderEventData } from './dto/order-event-data';

/** An order event's data (contract §10), from an order row aliased `o` (orders' columns). */
export const orderEventData = (o: string) =>
  eventDataOf<OrderEventData>({
    orderId: `${o}.id`,
    orderNumber: `${o}.order_number`,
    partnerOrderId: `${o}.partner_order_id`,
    source: `${o}.source`,
    status: `${o}.status`,
    paymentStatus: `${o}.payment_status`,
    deliveryStatus: `${o}.delivery_status`,
    carrierTrackingNumber: `${o}.carrier_tracking_number`,
    totalKopeks: `${o}.total_kopeks`,
  });
