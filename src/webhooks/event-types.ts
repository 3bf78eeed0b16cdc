import { ORDER_EVENT_TYPES, RETURN_EVENT_TYPES } from '../domain-events/event-types';

export { ORDER_EVENT_TYPES, RETURN_EVENT_TYPES };

/**
 * The event types an endpoint may subscribe to (contract §10); `*` subscribes to all. The
 * registry of event types is the domain events' (src/domain-events/event-types.ts); the stock
 * and product events are readable there (§16) but not offered to endpoints yet.
 */
export const TEST_EVENT_TYPE = 'webhook.test';
export const EVENT_TYPES = [...ORDER_EVENT_TYPES, ...RETURN_EVENT_TYPES, TEST_EVENT_TYPE] as const;
export const SUBSCRIBABLE = [...EVENT_TYPES, '*'] as const;
