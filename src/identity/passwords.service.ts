import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { systemContext, type RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { AddressThrottle } from '../common/rate-limit/address-throttle';
import { normalizeEmail } from '../common/validation/email';
import { publicUrlOf, type Environment } from '../config/environment';
import { Transactions } from '../database/transactions';
import { Outbox } from '../outbox/outbox';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { accountTokenHash, mintAccountToken } from './account-token';
import { accountEvent, userOf } from './account-event';
import { AuthService } from './auth.service';
import { LoginThrottle } from './login-throttle.service';
import { assertPasswordAllowed } from './password-policy';
import { PasswordResetsRepository } from './password-resets.repository';
import { SessionsService } from './sessions.service';
import { LoginChallengesRepository } from './login-challenges.repository';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

const RESET_TTL_SECONDS = 30 * 60;
const RESET_MAILS_PER_HOUR = 3;
// Per client address, on top of the account's 3 an hour: one address cannot mail a list of strangers.
const RESET_REQUESTS_PER_ADDRESS = 10;
const RESET_ADDRESS_WINDOW_MS = 15 * 60_000;

/** What a reset request's outbox job carries: nothing secret. */
export interface ResetRequest {
  requestId: string;
  email: string;
  /** The requester's address, for the journal entry the job writes. */
  ip: string;
}

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
    private readonly challenges: LoginChallengesRepository,
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
      await this.challenges.endAllOf(tx, user.id);
      await this.journal.recordWith(tx, ctx, accountEvent('password_changed', user.id, { sessionsEnded: ended }));
    });
  }

  /**
   * The same 202, in the same time, for every e-mail (no enumeration): the request is only
   * recorded, as an outbox job, and that job finds the account, keeps its budget and sends the
   * mail. It runs once (and again only if it fails), so the mail is sent once and retried.
   */
  async requestReset(ctx: RequestContext, email: string): Promise<void> {
    await this.addresses.take('password-reset', ctx.ip, RESET_REQUESTS_PER_ADDRESS, RESET_ADDRESS_WINDOW_MS);
    const request: ResetRequest = { requestId: randomUUID(), email: normalizeEmail(email), ip: ctx.ip.slice(0, 64) };
    await this.transactions.run((tx) =>
      this.outbox.enqueue(tx, [
        { kind: 'mail.password_reset', payload: { ...request }, dedupeKey: `password_reset:${request.requestId}` },
      ]),
    );
  }

  /**
   * The mail job's step before it sends: for an active account with fewer than 3 resets this
   * hour, a reset that replaces the live one, with a token minted now and committed (as its
   * digest) before the mail leaves, so the link works the moment it arrives. A retried job
   * re-mints its own reset's token (the first link, perhaps never delivered, dies) and counts
   * nothing twice. Null when there is nothing to send.
   */
  async resetMailFor(request: ResetRequest): Promise<ResetMail | null> {
    const { token, hash } = mintAccountToken('passwordReset');
    const link = `${this.publicUrl}/dashboard/#/reset/${token}`;
    return this.transactions.run(async (tx) => {
      const made = await this.resets.findByRequest(tx, request.requestId);
      if (made) {
        const again = await this.resets.setToken(tx, made.id, hash);
        return again && { to: again.email, link, expiresAt: again.expires_at };
      }
      // Locking the account serializes its requests: two at once cannot both take the hour's last mail.
      const account = await this.usersTable.lockActiveByEmail(tx, request.email);
      if (!account) return null;
      if ((await this.resets.countLastHour(tx, account.id)) >= RESET_MAILS_PER_HOUR) return null;
      await this.resets.endLiveOf(tx, account.id);
      const expiresAt = await this.resets.insert(tx, {
        userId: account.id,
        requestId: request.requestId,
        hash,
        ttlSeconds: RESET_TTL_SECONDS,
      });
      const asked: RequestContext = { ...systemContext('/auth/password-reset'), method: 'POST', ip: request.ip };
      await this.journal.recordWith(tx, asked, accountEvent('password_reset_requested', account.id));
      return { to: account.email, link, expiresAt };
    });
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
      await this.challenges.endAllOf(tx, reset.user_id);
      await this.journal.recordWith(tx, ctx, accountEvent('password_reset', reset.user_id, { sessionsEnded: ended }));
      return reset.email;
    });
    await this.throttle.succeeded(email);
  }
}
