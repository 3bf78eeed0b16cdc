import type { CarrierStatus } from './carrier-status';
import type { OrderStatus } from './order.entity';

/**
 * Every move an order's status may make, and nothing else (contract §6, §7, §9). OrderLifecycle
 * refuses any move not listed here. Orders arrive `new` (taken by the platform) or `paid` (from
 * the storefront); `returned` and `cancelled` are final.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  new: ['paid', 'cancelled'],
  paid: ['shipped', 'completed', 'returned', 'cancelled'],
  shipped: ['completed', 'returned'],
  completed: ['returned'],
  returned: [],
  cancelled: [],
};

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

/** What each carrier status asks of the order: `delivered` completes it, `returned` marks it returned, a shipment on its way ships it. */
const CARRIER_TARGET: Readonly<Record<CarrierStatus, OrderStatus | null>> = {
  registered: null,
  accepted: 'shipped',
  in_transit: 'shipped',
  arrived: 'shipped',
  not_delivered: 'shipped',
  delivered: 'completed',
  returned: 'returned',
};

/** The status a carrier status moves the order to: what it asks for when the table allows it, else the current one. */
export function statusAfterCarrier(current: OrderStatus, carrier: CarrierStatus): OrderStatus {
  const target = CARRIER_TARGET[carrier];
  return target !== null && canMove(current, target) ? target : current;
}
