import type { EventFamilyDeclaration } from '../domain-events/event-family';

/** The events of a return (contract §10, §16). */
export const RETURN_EVENT_TYPES = [
  'return.requested',
  'return.approved',
  'return.declined',
  'return.received',
  'return.closed',
  'return.canceled',
  'return.refunded',
] as const;

export const RETURN_EVENTS = {
  prefix: 'return',
  permission: 'returns.read',
  types: RETURN_EVENT_TYPES,
} as const satisfies EventFamilyDeclaration;
