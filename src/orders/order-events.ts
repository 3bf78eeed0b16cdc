import type { EventFamilyDeclaration } from '../domain-events/event-family';

/** The events of an order (contract §10, §16). */
export const ORDER_EVENT_TYPES = [
  'order.created',
  'order.paid',
  'order.shipped',
  'order.delivery_status_changed',
  'order.completed',
  'order.returned',
  'order.cancelled',
  // The buyer's data was anonymised (contract §17): the order's data, as the others.
  'order.personal_data_erased',
] as const;

export const ORDER_EVENTS = {
  prefix: 'order',
  permission: 'orders.read',
  types: ORDER_EVENT_TYPES,
} as const satisfies EventFamilyDeclaration;
