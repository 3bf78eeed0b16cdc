import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { Transactions } from '../database/transactions';
import { LoginFailuresRepository } from './login-failures.repository';

export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_WINDOW_SECONDS = 15 * 60;
// Failures of e-mails nobody tries again would stay forever; each instance clears them this often.
const SWEEP_EVERY_MS = 60_000;

/**
 * At most 10 failed logins per e-mail in any 15 minutes, across every instance. An attempt takes
 * a failure slot before the password is checked (under a per-e-mail advisory lock), and gives it
 * back on success, so a burst of parallel guesses cannot slip past the count.
 */
@Injectable()
export class LoginThrottle {
  private readonly logger = new Logger(LoginThrottle.name);
  private lastSweep = 0;

  constructor(
    private readonly failures: LoginFailuresRepository,
    private readonly transactions: Transactions,
  ) {}

  /** Returns the slot's id, or throws 429 with Retry-After when the e-mail is locked. */
  async reserve(email: string): Promise<string> {
    this.sweepNowAndThen();
    return this.transactions.run(async (tx) => {
      await this.failures.lockEmail(tx, email);
      await this.failures.deleteOlderThan(tx, email, LOGIN_WINDOW_SECONDS);
      const retryAfter = await this.failures.secondsUntilBelowLimit(
        tx,
        email,
        LOGIN_WINDOW_SECONDS,
        LOGIN_FAILURE_LIMIT,
      );
      if (retryAfter !== null) throw AppError.tooManyRequests(ErrorText.tooManyLoginAttempts, retryAfter);
      return this.failures.insert(tx, email);
    });
  }

  /**
   * A right password checked within a session (a step-up, a password change) gives back only the
   * slot it took: the e-mail's other failures may be guesses at its second factor, which a
   * password does not answer.
   */
  async release(slotId: string): Promise<void> {
    await this.failures.deleteOne(slotId);
  }

  /** A sign-in completed (the password, and the second factor if held) clears the e-mail's failures. */
  async succeeded(email: string): Promise<void> {
    await this.failures.deleteAllOf(email);
  }

  /**
   * Expired failures of every e-mail, at most once a minute per instance and only while logins
   * come in (without logins nothing new is written). Not awaited: a login does not wait for it.
   */
  private sweepNowAndThen(): void {
    if (Date.now() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = Date.now();
    this.failures
      .deleteAllOlderThan(LOGIN_WINDOW_SECONDS)
      .catch((error: Error) => this.logger.warn(`could not sweep expired login failures: ${error.message}`));
  }
}
