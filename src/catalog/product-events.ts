import type { EventFamilyDeclaration } from '../domain-events/event-family';

/** The events of a product: its creation and any change of what it is. */
export const PRODUCT_EVENT_TYPES = ['product.created', 'product.updated'] as const;

export const PRODUCT_EVENTS = {
  prefix: 'product',
  permission: 'products.read',
  types: PRODUCT_EVENT_TYPES,
} as const satisfies EventFamilyDeclaration;
