import { dictionary } from '@zxcvbn-ts/language-common';

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;
export const COMMON_PASSWORD_COUNT = 10_000;
const LOCAL_PART_MIN = 4;

/**
 * zxcvbn-ts's list of common passwords is ranked by frequency; its first 10 000 are the ones the
 * contract refuses (§19). Shipped in the package, read once at start, never fetched.
 */
const COMMON = new Set(dictionary['passwords-common'].slice(0, COMMON_PASSWORD_COUNT).map((p) => p.toLowerCase()));

/** Which part of the password rule a password breaks. */
export type PasswordRuleBreach = 'length' | 'common' | 'local_part';

/**
 * The rule for every password set (contract §19): 12 to 256 characters, not one of the 10 000 most
 * common, and not holding the account e-mail's local part (4+ characters, any case). Length counts
 * characters as a person types them (code points), not UTF-16 units. The part broken, or null.
 *
 * It lives here, not in identity, because the environment's validation applies it too
 * (BOOTSTRAP_ADMIN_PASSWORD) before any module exists, and config/ may depend on no feature module;
 * identity's password-policy gives the API's texts for it.
 */
export function passwordRuleBreach(password: string, email: string): PasswordRuleBreach | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) return 'length';
  const lowered = password.toLowerCase();
  if (COMMON.has(lowered)) return 'common';
  const local = email.slice(0, email.lastIndexOf('@')).toLowerCase();
  if ([...local].length >= LOCAL_PART_MIN && lowered.includes(local)) return 'local_part';
  return null;
}
