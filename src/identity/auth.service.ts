import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { LoginThrottle } from './login-throttle.service';
import { PasswordHasher } from './password-hasher';
import { IssuedSession, SessionsService } from './sessions.service';
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
  ) {}

  /** One answer for a wrong e-mail and a wrong password, in the same time: no user enumeration. */
  async login(email: string, password: string): Promise<LoginResult> {
    const normalized = normalizeEmail(email);
    await this.throttle.reserve(normalized);
    const user = await this.users.findForLogin(normalized);
    const ok = await this.hasher.verify(user?.passwordHash ?? null, password);
    if (!user || !ok) throw AppError.unauthorized();
    await this.throttle.succeeded(normalized);
    const session = await this.sessions.issue(user.id);
    return { session, user: { id: user.id, email: user.email, isSuperadmin: user.isSuperadmin } };
  }

  async logout(ctx: RequestContext): Promise<void> {
    await this.sessions.end(userOf(ctx).sessionId);
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

function userOf(ctx: RequestContext): UserPrincipal {
  // Routes calling this are @RequireSession(): the guard chain let only users through.
  return ctx.principal as UserPrincipal;
}
