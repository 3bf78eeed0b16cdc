/** The event types an endpoint may subscribe to (contract §10); `*` subscribes to all. */
export const ORDER_EVENT_TYPES = [
  'order.created',
  'order.paid',
  'order.shipped',
  'order.delivery_status_changed',
  'order.completed',
  'order.returned',
  'order.cancelled',
] as const;
export const RETURN_EVENT_TYPES = [
  'return.requested',
  'return.approved',
  'return.declined',
  'return.received',
  'return.closed',
  'return.canceled',
  'return.refunded',
] as const;
export const TEST_EVENT_TYPE = 'webhook.test';
export const EVENT_TYPES = [...ORDER_EVENT_TYPES, ...RETURN_EVENT_TYPES, TEST_EVENT_TYPE] as const;
export const SUBSCRIBABLE = [...EVENT_TYPES, '*'] as const;
