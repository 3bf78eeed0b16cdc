import type { BrandPermission } from '../common/context/permissions';

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
/** The events of a return. */
export const RETURN_EVENT_TYPES = [
  'return.requested',
  'return.approved',
  'return.declined',
  'return.received',
  'return.closed',
  'return.canceled',
  'return.refunded',
] as const;
/** The events of a size's stock: one a size changed in a transaction, whatever changed it. */
export const STOCK_EVENT_TYPES = ['stock.changed'] as const;
/** The events of a product: its creation and any change of what it is. */
export const PRODUCT_EVENT_TYPES = ['product.created', 'product.updated'] as const;

/**
 * Each family of event types (the part before the dot) and the permission that reads it (§16):
 * reading an event follows the right to read what it is about.
 */
export const EVENT_FAMILIES = [
  { prefix: 'order', permission: 'orders.read', types: ORDER_EVENT_TYPES },
  { prefix: 'return', permission: 'returns.read', types: RETURN_EVENT_TYPES },
  { prefix: 'stock', permission: 'stock.read', types: STOCK_EVENT_TYPES },
  { prefix: 'product', permission: 'products.read', types: PRODUCT_EVENT_TYPES },
] as const satisfies ReadonlyArray<{ prefix: string; permission: BrandPermission; types: readonly string[] }>;

export type EventFamily = (typeof EVENT_FAMILIES)[number];

/** Every permission that reads some events, in the order of the families. */
export const EVENT_READ_PERMISSIONS = EVENT_FAMILIES.map((f) => f.permission);

/** The family of a known event type, or undefined. */
export function familyOf(type: string): EventFamily | undefined {
  return EVENT_FAMILIES.find((f) => (f.types as readonly string[]).includes(type));
}
