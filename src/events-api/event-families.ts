import { PRODUCT_EVENTS } from '../catalog/product-events';
import { ORDER_EVENTS } from '../orders/order-events';
import { RETURN_EVENTS } from '../returns/return-events';
import { STOCK_EVENTS } from '../stock-ledger/stock-events';

/**
 * Every family of event types its owner declares, in the order the events API names their
 * permissions (§16). A new owner of events adds its declaration here.
 */
export const EVENT_FAMILIES = [ORDER_EVENTS, RETURN_EVENTS, STOCK_EVENTS, PRODUCT_EVENTS] as const;

export type EventFamily = (typeof EVENT_FAMILIES)[number];

/** Every permission that reads some events, in the order of the families. */
export const EVENT_READ_PERMISSIONS = EVENT_FAMILIES.map((f) => f.permission);

/** The family of a known event type, or undefined. */
export function familyOf(type: string): EventFamily | undefined {
  return EVENT_FAMILIES.find((f) => (f.types as readonly string[]).includes(type));
}
