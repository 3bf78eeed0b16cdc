import type { RequestContext } from '../common/context/request-context';
import type { JournalType } from '../security-journal/security-journal.service';
import type { UserPrincipal } from './user-principal';

/** An entry of an account's own journal: no brand, the account as actor. */
/** The journal's entries about an account itself. */
type AccountEventType = Extract<
  JournalType,
  | 'user_signed_in'
  | 'user_sign_in_failed'
  | 'session_ended'
  | 'password_changed'
  | 'password_reset_requested'
  | 'password_reset'
  | 'second_factor_enabled'
  | 'second_factor_disabled'
  | 'passkey_added'
  | 'passkey_removed'
  | 'recovery_code_used'
  | 'recovery_codes_regenerated'
>;

export function accountEvent(type: AccountEventType, userId: number, details?: Record<string, unknown>) {
  return { type, brandId: null, actor: { kind: 'user' as const, id: userId }, details };
}

export function userOf(ctx: RequestContext): UserPrincipal {
  // Routes calling this are @RequireSession(): the guard chain let only users through.
  return ctx.principal as UserPrincipal;
}
