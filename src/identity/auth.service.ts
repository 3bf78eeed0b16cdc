import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { accountEvent, userOf } from './account-event';
import { LoginChallengesService, type SecondStep } from './login-challenges.service';
import { LoginThrottle } from './login-throttle.service';
import { PasswordHasher } from './password-hasher';
import { IssuedSession, SessionClient, SessionsService } from './sessions.service';
import type { SecondFactorAnswer, SecondFactorMethod } from './second-factor-answer';
import { SecondFactorService } from './second-factor.service';
import { PasskeysService } from './passkeys.service';
import type { UserPrincipal, MembershipRow } from './user-principal';
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
  secondFactor: boolean;
  secondFactorMethods: SecondFactorMethod[];
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
    private readonly challenges: LoginChallengesService,
    private readonly factors: SecondFactorService,
    private readonly passkeys: PasskeysService,
  ) {}

  /**
   * One answer for a wrong e-mail and a wrong password, in the same time: no user enumeration.
   * A failure against an existing account goes to that account's journal; one against no
   * account goes nowhere (contract §19), so the journal cannot be filled with made-up names.
   */
  async login(
    ctx: RequestContext,
    email: string,
    password: string,
    client: SessionClient,
  ): Promise<LoginResult | SecondStep> {
    const normalized = normalizeEmail(email);
    await this.throttle.reserve(normalized);
    const user = await this.users.findForLogin(normalized);
    const ok = await this.hasher.verify(user?.passwordHash ?? null, password);
    if (!user || !ok) {
      if (user) await this.journal.record(ctx, accountEvent('user_sign_in_failed', user.id));
      throw AppError.unauthorized();
    }
    // The password's throttle slot stays taken until the second step is answered right.
    const secondStep = await this.challenges.open(user.id);
    if (secondStep) return secondStep;
    await this.throttle.succeeded(normalized);
    return this.signIn(ctx, user, client);
  }

  /** The second step of a sign-in: the right answer to a live challenge opens the session. */
  async completeSecondStep(
    ctx: RequestContext,
    challengeToken: string,
    answer: SecondFactorAnswer,
    client: SessionClient,
  ): Promise<LoginResult> {
    const user = await this.challenges.answer(ctx, challengeToken, answer);
    return this.signIn(ctx, user, client, 'second_factor');
  }

  /** A session for an account that has just proved itself (a password, an accepted invitation). */
  async signIn(
    ctx: RequestContext,
    user: { id: number; email: string; isSuperadmin: boolean },
    client: SessionClient,
    by?: 'second_factor',
  ): Promise<LoginResult> {
    const session = await this.sessions.issue(user.id, client);
    await this.users.noteSignIn(user.id);
    await this.journal.record(ctx, accountEvent('user_signed_in', user.id, by ? { by } : undefined));
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
   * Recent authentication (contract §19): by password for an account without a second factor,
   * by that factor for one with it. Every answer takes a slot of the login throttle, so guesses
   * made through a stolen session are bounded as a sign-in's are.
   */
  async stepUp(ctx: RequestContext, proof: { password: string } | SecondFactorAnswer): Promise<void> {
    const user = userOf(ctx);
    const byPassword = 'password' in proof;
    if (byPassword === user.hasSecondFactor) {
      throw AppError.badRequest([byPassword ? ErrorText.stepUpWithSecondFactor : ErrorText.stepUpWithPassword]);
    }
    if ('password' in proof) {
      await this.verifyPassword(ctx, user, proof.password);
    } else {
      await this.throttle.reserve(user.email);
      const challenge = proof.kind === 'passkey' ? await this.passkeys.takeStepUpChallenge(user.sessionId) : null;
      if (!(await this.factors.proves(ctx, user.id, proof, challenge))) {
        await this.journal.record(ctx, accountEvent('user_sign_in_failed', user.id, { by: 'step_up' }));
        throw AppError.unauthorized(ErrorText.invalidCode);
      }
      await this.throttle.succeeded(user.email);
    }
    await this.sessions.markAuthenticated(user.sessionId);
  }

  /** The account's password, counted by the login throttle; 403 Wrong password when it is not. */
  async verifyPassword(ctx: RequestContext, user: UserPrincipal, password: string): Promise<void> {
    const slot = await this.throttle.reserve(user.email);
    const account = await this.users.findForLogin(user.email);
    if (!account || !(await this.hasher.verify(account.passwordHash, password))) {
      await this.journal.record(ctx, accountEvent('user_sign_in_failed', user.id, { by: 'password_check' }));
      throw AppError.forbidden(ErrorText.wrongPassword);
    }
    await this.throttle.release(slot);
  }

  async me(ctx: RequestContext): Promise<MeView> {
    const user = userOf(ctx);
    return {
      id: user.id,
      email: user.email,
      isSuperadmin: user.isSuperadmin,
      memberships: user.membershipList(),
      secondFactor: user.hasSecondFactor,
      secondFactorMethods: user.hasSecondFactor ? await this.factors.methodsOf(user.id) : [],
      csrfToken: this.sessions.csrfTokenOf(user.sessionId),
    };
  }
}
