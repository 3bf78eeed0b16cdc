import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { LoginThrottle } from './login-throttle.service';
import { PasswordHasher } from './password-hasher';
import { IssuedSession, SessionClient, SessionsService } from './sessions.service';
import { UserPrincipal, type MembershipRow } from './user-principal';
import { normalizeEmail } from '../common/validation/email';
import { UsersService } from './users.service';

export interface LoginResult {
  session: IssuedSession;
  user: { id: number; email: string; isSuperadmin: boolean };
}

export interface MeView {
  id: number;
  email: string;
  isSuperadmin: boolean;
  memberships: Array<Required<MembershipRow>>;
  csrfToken: string;
}

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly throttle: LoginThrottle,
    private readonly journal: SecurityJournal,
  ) {}

  /**
   * One answer for a wrong e-mail and a wrong password, in the same time: no user enumeration.
   * A failure against an existing account goes to that account's journal; one against no
   * account goes nowhere (contract §19), so the journal cannot be filled with made-up names.
   */
  async login(ctx: RequestContext, email: string, password: string, client: SessionClient): Promise<LoginResult> {
    const normalized = normalizeEmail(email);
    await this.throttle.reserve(normalized);
    const user = await this.users.findForLogin(normalized);
    const ok = await this.hasher.verify(user?.passwordHash ?? null, password);
    if (!user || !ok) {
      if (user) await this.journal.record(ctx, accountEvent('user_sign_in_failed', user.id));
      throw AppError.unauthorized();
    }
    await this.throttle.succeeded(normalized);
    return this.signIn(ctx, user, client);
  }

  /** A session for an account that has just proved itself (a password, an accepted invitation). */
  async signIn(
    ctx: RequestContext,
    user: { id: number; email: string; isSuperadmin: boolean },
    client: SessionClient,
  ): Promise<LoginResult> {
    const session = await this.sessions.issue(user.id, client);
    await this.users.noteSignIn(user.id);
    await this.journal.record(ctx, accountEvent('user_signed_in', user.id));
    return { session, user: { id: user.id, email: user.email, isSuperadmin: user.isSuperadmin } };
  }

  async logout(ctx: RequestContext): Promise<void> {
    const user = userOf(ctx);
    await this.sessions.end(user.sessionId);
    await this.journal.record(
      ctx,
      accountEvent('session_ended', user.id, { sessionId: user.sessionId, by: 'sign_out' }),
    );
  }

  /**
   * Recent authentication by password (contract §19): a wrong one counts as a failed login, so
   * the login throttle bounds guesses made through a stolen session too.
   */
  async stepUp(ctx: RequestContext, password: string): Promise<void> {
    const user = userOf(ctx);
    await this.verifyPassword(ctx, user, password);
    await this.sessions.markAuthenticated(user.sessionId);
  }

  /** The account's password, counted by the login throttle; 403 Wrong password when it is not. */
  async verifyPassword(ctx: RequestContext, user: UserPrincipal, password: string): Promise<void> {
    await this.throttle.reserve(user.email);
    const account = await this.users.findForLogin(user.email);
    if (!account || !(await this.hasher.verify(account.passwordHash, password))) {
      await this.journal.record(ctx, accountEvent('user_sign_in_failed', user.id, { by: 'password_check' }));
      throw AppError.forbidden(ErrorText.wrongPassword);
    }
    await this.throttle.succeeded(user.email);
  }

  me(ctx: RequestContext): MeView {
    const user = userOf(ctx);
    return {
      id: user.id,
      email: user.email,
      isSuperadmin: user.isSuperadmin,
      memberships: user.membershipList(),
      csrfToken: this.sessions.csrfTokenOf(user.sessionId),
    };
  }
}

/** An entry of an account's own journal: no brand, the account as actor. */
export function accountEvent(
  type:
    | 'user_signed_in'
    | 'user_sign_in_failed'
    | 'session_ended'
    | 'password_changed'
    | 'password_reset_requested'
    | 'password_reset',
  userId: number,
  details?: Record<string, unknown>,
) {
  return { type, brandId: null, actor: { kind: 'user' as const, id: userId }, details };
}

export function userOf(ctx: RequestContext): UserPrincipal {
  // Routes calling this are @RequireSession(): the guard chain let only users through.
  return ctx.principal as UserPrincipal;
}
