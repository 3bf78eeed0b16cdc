import { sha256Hex } from '../common/runtime/sha256';

/** A place in a brand's stream of events: after the event at (position, id); both decimal text. */
export interface EventCursor {
  readonly position: string;
  readonly id: string;
}

/** Before every event. */
export const START: EventCursor = Object.freeze({ position: '0', id: '0' });

const VERSION = 'v2';
/** Written before cursors named their brand; read until every reader has moved past one. */
const UNBOUND = 'v1';
const INT8_MAX = 2n ** 63n - 1n;
const NUMBER = /^(0|[1-9][0-9]{0,18})$/;
const TEXT = /^[A-Za-z0-9_-]{1,96}$/;
// Detects a changed digit, not an adversary: a forged cursor can only name a place in the
// caller's own brand's stream, which the caller may read from anyway. The brand is in the check,
// so a cursor kept for one brand and sent with another's credentials is refused rather than
// silently skipping that brand's events below its place.
const checkOf = (body: string, brandId: number | null) =>
  sha256Hex(brandId === null ? body : `${body}.${brandId}`).slice(0, 8);

/** The `nextCursor` text of a place in `brandId`'s stream: opaque to clients (base64url of `v2.<position>.<id>.<check>`). */
export function encodeCursor(cursor: EventCursor, brandId: number): string {
  const body = `${VERSION}.${cursor.position}.${cursor.id}`;
  return Buffer.from(`${body}.${checkOf(body, brandId)}`, 'utf8').toString('base64url');
}

/**
 * The place an `after` names in `brandId`'s stream, or undefined for anything this service did
 * not write for that brand: another spelling of the same bytes (padding, `+` or `/`), another
 * version, a number out of range, a check that does not match (another brand's cursor too).
 */
export function decodeCursor(text: string, brandId: number): EventCursor | undefined {
  if (!TEXT.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text) return undefined;
  const parts = bytes.toString('utf8').split('.');
  if (parts.length !== 4) return undefined;
  const [version, position, id, check] = parts;
  if ((version !== VERSION && version !== UNBOUND) || !NUMBER.test(position) || !NUMBER.test(id)) return undefined;
  if (BigInt(position) > INT8_MAX || BigInt(id) > INT8_MAX) return undefined;
  if (check !== checkOf(`${version}.${position}.${id}`, version === VERSION ? brandId : null)) return undefined;
  return { position, id };
}
