import type { Permission } from '../../common/context/permissions';

/**
 * An integration key whose liveness a route's own statement checks (`@KeyCheckedByStatement`):
 * one round trip to PostgreSQL instead of two. The key's brand and permissions never change, so
 * the guards judge them from what this instance already knows of the key; whether it is still
 * good (revoked, expired, its author's standing, its addresses) is read by the statement, which
 * does nothing unless the key passes. The owning service then settles it (KeyChecks.settle).
 */
export interface PendingKeyCheck {
  /** SHA-256 of the presented key. */
  readonly fingerprint: Buffer;
  /** The permission the route requires, which the statement asks of the key again. */
  readonly permission: Permission | null;
  /**
   * Checks the key on its own (one query) and settles the request's principal, or throws the
   * 401/403 of the ordinary check: for answers that come before the statement runs (a refusal by
   * a guard, a bad body) and for a repeat answered from memory.
   */
  settleAlone(): Promise<void>;
}
