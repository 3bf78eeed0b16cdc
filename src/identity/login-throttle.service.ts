import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';

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

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Returns the slot's id, or throws 429 with Retry-After when the e-mail is locked. */
  async reserve(email: string): Promise<string> {
    this.sweepNowAndThen();
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('login:' || $1))`, [email]);
      await tx.query(
        `DELETE FROM login_failures WHERE email = $1 AND attempted_at <= now() - make_interval(secs => $2)`,
        [email, LOGIN_WINDOW_SECONDS],
      );
      const blocking: Array<{ retry_after: string }> = await tx.query(
        `SELECT ceil(extract(epoch FROM attempted_at + make_interval(secs => $2) - now()))::int AS retry_after
           FROM login_failures WHERE email = $1
          ORDER BY attempted_at DESC OFFSET $3 LIMIT 1`,
        [email, LOGIN_WINDOW_SECONDS, LOGIN_FAILURE_LIMIT - 1],
      );
      if (blocking.length > 0) {
        throw AppError.tooManyRequests(ErrorText.tooManyLoginAttempts, Number(blocking[0].retry_after));
      }
      const inserted: Array<{ id: string }> = await tx.query(
        'INSERT INTO login_failures (email) VALUES ($1) RETURNING id',
        [email],
      );
      return inserted[0].id;
    });
  }

  /** A correct password clears the e-mail's failures, including the slot just taken. */
  async succeeded(email: string): Promise<void> {
    await this.db.query('DELETE FROM login_failures WHERE email = $1', [email]);
  }

  /**
   * Expired failures of every e-mail, at most once a minute per instance and only while logins
   * come in (without logins nothing new is written). Not awaited: a login does not wait for it.
   */
  private sweepNowAndThen(): void {
    if (Date.now() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = Date.now();
    this.db
      .query(`DELETE FROM login_failures WHERE attempted_at <= now() - make_interval(secs => $1)`, [
        LOGIN_WINDOW_SECONDS,
      ])
      .catch((error: Error) => this.logger.warn(`could not sweep expired login failures: ${error.message}`));
  }
}
