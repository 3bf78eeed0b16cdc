import { Injectable, OnModuleInit } from '@nestjs/common';
import type { HttpRequest } from '../common/context/http-types';
import { headerOf } from '../common/http/header-of';
import { TokenExpiredError } from '@nestjs/jwt';
import { Credential, CredentialRegistry, CredentialResolver } from '../common/context/credential-registry';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { SessionsService } from './sessions.service';
import { UserPrincipal } from './user-principal';

/** Three base64url parts: what the spec calls "a value that looks like a session token". */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

@Injectable()
export class SessionCredentialResolver implements CredentialResolver, OnModuleInit {
  readonly realm = 'platform' as const;

  constructor(
    private readonly registry: CredentialRegistry,
    private readonly sessions: SessionsService,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  accepts(token: string): boolean {
    return JWT_SHAPE.test(token);
  }

  async resolve(credential: Credential, request: HttpRequest): Promise<UserPrincipal> {
    let sessionId: string;
    try {
      sessionId = this.sessions.verifyToken(credential.token).sid;
    } catch (error) {
      // The signature matched but the token is past its time: a valid, finished session.
      if (error instanceof TokenExpiredError) throw AppError.unauthorized();
      throw AppError.unauthorized(ErrorText.invalidToken);
    }
    if (typeof sessionId !== 'string' || !UUID.test(sessionId)) throw AppError.unauthorized();
    const session = await this.sessions.findActive(sessionId, request.ip ?? '');
    if (!session) throw AppError.unauthorized();
    // CSRF concerns browsers only: a request carrying an Authorization header is outside it (spec 5.9).
    if (credential.source === 'cookie' && !SAFE_METHODS.has(request.method)) {
      if (!this.sessions.csrfMatches(session, headerOf(request, 'x-csrf-token'))) {
        throw AppError.forbidden(ErrorText.invalidCsrfToken);
      }
    }
    return new UserPrincipal(
      session.userId,
      session.email,
      session.isSuperadmin,
      session.sessionId,
      session.memberships,
      session.authenticatedAt,
      session.hasSecondFactor,
    );
  }
}
