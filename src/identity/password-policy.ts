import { dictionary } from '@zxcvbn-ts/language-common';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;
const COMMON_COUNT = 10_000;
const LOCAL_PART_MIN = 4;

/**
 * zxcvbn-ts's list of common passwords is ranked by frequency; its first 10 000 are the ones the
 * contract refuses (§19). Shipped in the package, read once at start, never fetched.
 */
const COMMON = new Set(dictionary['passwords-common'].slice(0, COMMON_COUNT).map((p) => p.toLowerCase()));

/**
 * The rule for every password set from now on (contract §19): 12 to 256 characters, not one of
 * the 10 000 most common, and not holding the account e-mail's local part (4+ characters, any
 * case). Length counts characters as a person types them (code points), not UTF-16 units.
 * Returns the refusal's text, or null when the password may be set.
 */
export function passwordProblem(password: string, email: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) return ErrorText.passwordLength;
  const lowered = password.toLowerCase();
  if (COMMON.has(lowered)) return ErrorText.passwordTooWeak;
  const local = email.slice(0, email.lastIndexOf('@')).toLowerCase();
  if ([...local].length >= LOCAL_PART_MIN && lowered.includes(local)) return ErrorText.passwordTooWeak;
  return null;
}

/** Throws the contract's 400 when the password may not be set for this e-mail. */
export function assertPasswordAllowed(password: string, email: string): void {
  const problem = passwordProblem(password, email);
  if (problem) throw AppError.badRequest([problem]);
}
