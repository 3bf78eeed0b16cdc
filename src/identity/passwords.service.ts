import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { AddressThrottle } from '../common/rate-limit/address-throttle';
import { normalizeEmail } from '../common/validation/email';
import { publicUrlOf, type Environment } from '../config/environment';
import { Transactions } from '../database/transactions';
import { Outbox } from '../outbox/outbox';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { accountTokenHash, mintAccountToken } from './account-token';
import { accountEvent, AuthService, userOf } from './auth.service';
import { LoginThrottle } from './login-throttle.service';
import { assertPasswordAllowed } from './password-policy';
import { PasswordResetsRepository } from './password-resets.repository';
import { SessionsService } from './sessions.service';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

const RESET_TTL_SECONDS = 30 * 60;
const RESET_MAILS_PER_HOUR = 3;
// Per client address, on top of the account's 3 an hour: one address cannot mail a list of strangers.
const RESET_REQUESTS_PER_ADDRESS = 10;
const RESET_ADDRESS_WINDOW_MS = 15 * 60_000;

/** What the reset mail needs; the token exists only here and in the mail. */
export interface ResetMail {
  to: string;
  link: string;
  expiresAt: Date;
}

/** Changing a password, and resetting a forgotten one by mail (contract §19). */
@Injectable()
export class PasswordsService {
  private readonly publicUrl: string;

  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersService,
    private readonly usersTable: UsersRepository,
    private readonly resets: PasswordResetsRepository,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottle,
    private readonly addresses: AddressThrottle,
    private readonly journal: SecurityJournal,
    private readonly outbox: Outbox,
    private readonly transactions: Transactions,
    config: ConfigService<Environment, true>,
  ) {
    this.publicUrl = publicUrlOf({
      PUBLIC_URL: config.get('PUBLIC_URL', { infer: true }),
      PORT: config.get('PORT', { infer: true }),
    });
  }

  /** The current password proves the account; the other sessions end at once, this one stays. */
  async change(ctx: RequestContext, currentPassword: string, newPassword: string): Promise<void> {
    const user = userOf(ctx);
    await this.auth.verifyPassword(ctx, user, currentPassword);
    assertPasswordAllowed(newPassword, user.email);
    await this.transactions.run(async (tx) => {
      await this.users.setPassword(tx, user.id, newPassword);
      const ended = await this.sessions.endAllOf(user.id, user.sessionId, tx);
      await this.journal.recordWith(tx, ctx, accountEvent('password_changed', user.id, { sessionsEnded: ended }));
    });
  }

  /**
   * The same 202 for every e-mail (no enumeration). An active account gets a mail unless it had
   * 3 this hour; a new request replaces the live one. The mail is an outbox job recorded with the
   * request, so it is sent once, retried, and its token minted only when it is sent.
   */
  async requestReset(ctx: RequestContext, email: string): Promise<void> {
    await this.addresses.take('password-reset', ctx.ip, RESET_REQUESTS_PER_ADDRESS, RESET_ADDRESS_WINDOW_MS);
    const account = await this.users.findForLogin(normalizeEmail(email));
    if (!account) return;
    await this.transactions.run(async (tx) => {
      // Serializes this account's requests, so two at once cannot both take the last mail of the hour.
      if (!(await this.usersTable.lockById(tx, account.id))) return;
      if ((await this.resets.countLastHour(tx, account.id)) >= RESET_MAILS_PER_HOUR) return;
      await this.resets.endLiveOf(tx, account.id);
      const resetId = await this.resets.insert(tx, account.id, RESET_TTL_SECONDS);
      await this.outbox.enqueue(tx, [
        { kind: 'mail.password_reset', payload: { resetId }, dedupeKey: `password_reset:${resetId}` },
      ]);
      await this.journal.recordWith(tx, ctx, accountEvent('password_reset_requested', account.id));
    });
  }

  /**
   * The outbox job's step before its mail: a fresh token for a reset still live, its digest
   * committed before the mail leaves, so the link works the moment it arrives. A retried job
   * mints another and the first link (perhaps never delivered) dies; null when the reset ended.
   */
  async mintForMail(resetId: string): Promise<ResetMail | null> {
    const { token, hash } = mintAccountToken('passwordReset');
    const reset = await this.transactions.run((tx) => this.resets.setToken(tx, resetId, hash));
    if (!reset) return null;
    return { to: reset.email, link: `${this.publicUrl}/dashboard/#/reset/${token}`, expiresAt: reset.expires_at };
  }

  /**
   * Sets the new password from a live token, once: every session of the account ends and its
   * failed logins are forgotten. A weak password is refused with the token still live.
   */
  async completeReset(ctx: RequestContext, token: string, newPassword: string): Promise<void> {
    const hash = accountTokenHash('passwordReset', token);
    if (!hash) throw AppError.notFound(ErrorText.invalidOrExpiredToken);
    const email = await this.transactions.run(async (tx) => {
      const reset = await this.resets.lockLive(tx, hash);
      if (!reset) throw AppError.notFound(ErrorText.invalidOrExpiredToken);
      assertPasswordAllowed(newPassword, reset.email);
      await this.resets.end(tx, reset.id);
      await this.users.setPassword(tx, reset.user_id, newPassword);
      const ended = await this.sessions.endAllOf(reset.user_id, null, tx);
      await this.journal.recordWith(tx, ctx, accountEvent('password_reset', reset.user_id, { sessionsEnded: ended }));
      return reset.email;
    });
    await this.throttle.succeeded(email);
  }
}
