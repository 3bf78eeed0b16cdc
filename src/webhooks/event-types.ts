import {
  ORDER_EVENT_TYPES,
  PRODUCT_EVENT_TYPES,
  RETURN_EVENT_TYPES,
  STOCK_EVENT_TYPES,
} from '../domain-events/event-types';

export { ORDER_EVENT_TYPES, PRODUCT_EVENT_TYPES, RETURN_EVENT_TYPES, STOCK_EVENT_TYPES };

/**
 * The event types an endpoint may subscribe to (contract §10, §16): every domain event type (the
 * registry is src/domain-events/event-types.ts) and the test message; `*` subscribes to all.
 */
export const TEST_EVENT_TYPE = 'webhook.test';
export const EVENT_TYPES = [
  ...ORDER_EVENT_TYPES,
  ...RETURN_EVENT_TYPES,
  ...STOCK_EVENT_TYPES,
  ...PRODUCT_EVENT_TYPES,
  TEST_EVENT_TYPE,
] as const;
export const SUBSCRIBABLE = [...EVENT_TYPES, '*'] as const;
