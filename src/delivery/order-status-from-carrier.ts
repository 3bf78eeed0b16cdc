import type { OrderStatus } from '../orders/order.entity';
import type { CarrierStatus } from './dto/carrier-event.dto';

/**
 * The order status a carrier status moves the order to, or the current one. `delivered` completes
 * the order and `returned` marks it returned (contract §7); a paid order the carrier has taken is
 * shipped. Cancelled orders stay cancelled.
 */
export function nextOrderStatus(current: OrderStatus, delivery: CarrierStatus): OrderStatus {
  if (current === 'cancelled') return current;
  if (delivery === 'delivered') return 'completed';
  if (delivery === 'returned') return 'returned';
  if (current === 'paid' && ['accepted', 'in_transit', 'arrived', 'not_delivered'].includes(delivery)) return 'shipped';
  return current;
}
