import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { passwordRuleBreach } from '../config/password-rule';

export { PASSWORD_MAX, PASSWORD_MIN } from '../config/password-rule';

/**
 * The rule for every password set from now on (contract §19; config/password-rule.ts): 12 to 256
 * characters, not one of the 10 000 most common, and not holding the account e-mail's local part.
 * Returns the refusal's text, or null when the password may be set.
 */
export function passwordProblem(password: string, email: string): string | null {
  const breach = passwordRuleBreach(password, email);
  if (breach === null) return null;
  return breach === 'length' ? ErrorText.passwordLength : ErrorText.passwordTooWeak;
}

/** Throws the contract's 400 when the password may not be set for this e-mail. */
export function assertPasswordAllowed(password: string, email: string): void {
  const problem = passwordProblem(password, email);
  if (problem) throw AppError.badRequest([problem]);
}
