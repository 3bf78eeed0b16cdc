import { PRODUCT_EVENT_TYPES } from '../catalog/product-events';
import { ORDER_EVENT_TYPES } from '../orders/order-events';
import { RETURN_EVENT_TYPES } from '../returns/return-events';
import { STOCK_EVENT_TYPES } from '../stock-ledger/stock-events';

export { ORDER_EVENT_TYPES, PRODUCT_EVENT_TYPES, RETURN_EVENT_TYPES, STOCK_EVENT_TYPES };

/**
 * The event types an endpoint may subscribe to (contract §10, §16): every domain event type (each
 * owner declares its own; src/events-api/event-families.ts lists them) and the test message; `*` subscribes to all.
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
