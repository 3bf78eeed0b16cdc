import type { BrandPermission } from '../common/context/permissions';

/**
 * How an owner declares its events (contract §10, §16): the part of their types before the dot,
 * the types, and the permission that reads them, since reading an event follows the right to read
 * what it is about. The events API (src/events-api/event-families.ts) lists the declarations.
 */
export interface EventFamilyDeclaration {
  readonly prefix: string;
  readonly permission: BrandPermission;
  readonly types: readonly string[];
}
