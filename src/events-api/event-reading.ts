import type { BrandPermission } from '../common/context/permissions';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { EVENT_FAMILIES, familyOf } from './event-families';

/**
 * The event types a caller holding `held` reads (contract §16): those `types` names (a
 * comma-separated list of types and `<family>.*` prefixes), else every type of every family it
 * may read. An unknown name is a 400; a type it may not read, a 403 naming the permission (and
 * none at all, the first family's).
 */
export function readableTypes(types: string | undefined, held: ReadonlySet<BrandPermission>): string[] {
  if (types === undefined) {
    assertReadsSomeFamily(held);
    return EVENT_FAMILIES.filter((f) => held.has(f.permission)).flatMap((f) => [...f.types]);
  }
  // Every name is known before any is judged: an unknown one is a 400 wherever it stands in the list.
  const families = types.split(',').map((name) => {
    const family = name.endsWith('.*') ? EVENT_FAMILIES.find((f) => `${f.prefix}.*` === name) : familyOf(name);
    if (!family) throw AppError.badRequest([ErrorText.unknownEventType(name.slice(0, 64))]);
    return { name, family };
  });
  const named = new Set<string>();
  for (const { name, family } of families) {
    if (!held.has(family.permission)) throw AppError.forbidden(ErrorText.missingPermission(family.permission));
    for (const type of name.endsWith('.*') ? family.types : [name]) named.add(type);
  }
  return [...named];
}

/**
 * Refuses a caller that may read no family of events, as missing the first family's permission:
 * it learns nothing of the brand's events, not even which exist.
 */
export function assertReadsSomeFamily(held: ReadonlySet<BrandPermission>): void {
  if (!EVENT_FAMILIES.some((f) => held.has(f.permission))) {
    throw AppError.forbidden(ErrorText.missingPermission(EVENT_FAMILIES[0].permission));
  }
}

/** Refuses an event of a type the caller may not read (a 403 naming the permission). */
export function assertReadable(type: string, held: ReadonlySet<BrandPermission>): void {
  const family = familyOf(type);
  // Every type written is registered; one that is not is shown to no one rather than to all.
  if (!family) throw AppError.notFound();
  if (!held.has(family.permission)) throw AppError.forbidden(ErrorText.missingPermission(family.permission));
}
