import type { EventFamilyDeclaration } from '../domain-events/event-family';

/** The events of a size's stock: one a size changed in a transaction, whatever changed it. */
export const STOCK_EVENT_TYPES = ['stock.changed'] as const;

export const STOCK_EVENTS = {
  prefix: 'stock',
  permission: 'stock.read',
  types: STOCK_EVENT_TYPES,
} as const satisfies EventFamilyDeclaration;
