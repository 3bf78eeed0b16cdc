import { sha256Hex } from '../common/runtime/sha256';

/** A place in a brand's stream of events: after the event at (position, id); both decimal text. */
export interface EventCursor {
  readonly position: string;
  readonly id: string;
}

/** Before every event. */
export const START: EventCursor = Object.freeze({ position: '0', id: '0' });

const VERSION = 'v1';
const INT8_MAX = 2n ** 63n - 1n;
const NUMBER = /^(0|[1-9][0-9]{0,18})$/;
const TEXT = /^[A-Za-z0-9_-]{1,96}$/;
// Detects a changed digit, not an adversary: a forged cursor can only name a place in the
// caller's own brand's stream, which the caller may read from anyway.
const checkOf = (body: string) => sha256Hex(body).slice(0, 8);

/** The `nextCursor` text of a place: opaque to clients (base64url of `v1.<position>.<id>.<check>`). */
export function encodeCursor(cursor: EventCursor): string {
  const body = `${VERSION}.${cursor.position}.${cursor.id}`;
  return Buffer.from(`${body}.${checkOf(body)}`, 'utf8').toString('base64url');
}

/**
 * The place an `after` names, or undefined for anything this service did not write: another
 * spelling of the same bytes (padding, `+` or `/`), another version, a number out of range, a
 * check that does not match.
 */
export function decodeCursor(text: string): EventCursor | undefined {
  if (!TEXT.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text) return undefined;
  const parts = bytes.toString('utf8').split('.');
  if (parts.length !== 4) return undefined;
  const [version, position, id, check] = parts;
  if (version !== VERSION || !NUMBER.test(position) || !NUMBER.test(id)) return undefined;
  if (BigInt(position) > INT8_MAX || BigInt(id) > INT8_MAX) return undefined;
  if (check !== checkOf(`${version}.${position}.${id}`)) return undefined;
  return { position, id };
}
