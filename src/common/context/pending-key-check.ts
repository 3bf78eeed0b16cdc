import type { Permission } from './permissions';

/**
 * An integration key whose check a route's own statement makes (`@KeyCheckedByStatement`): one
 * round trip to PostgreSQL instead of two. The guards record what they would have asked of it;
 * the statement does nothing unless the key passes; the owning service then settles it against
 * the key's row the statement returned. Nothing about the key is cached: revocation, expiry and
 * the author's standing are read by that very statement.
 */
export interface PendingKeyCheck {
  /** SHA-256 of the presented key. */
  readonly fingerprint: Buffer;
  /** The permission the route requires, set by the permission guard. */
  permission: Permission | null;
  /** The brand this key was last seen to belong to (keys never change brand), or null. */
  readonly knownBrandId: number | null;
  /**
   * Checks the key on its own (one query) and settles the request's principal and brand, or
   * throws the 401/403 of the ordinary check. For answers that come before the statement runs
   * (a bad body: 401/403 before 400) and for a repeat answered from memory.
   */
  settleAlone(): Promise<void>;
}
