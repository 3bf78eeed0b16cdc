import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { contextOf } from '../context/context-of';
import { AuthRealm, Credential, CredentialRegistry } from '../context/credential-registry';
import { AUTH_REALM, IS_PUBLIC } from '../decorators/auth-metadata';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';

export const SESSION_COOKIE = 'session';
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

interface RealmRules {
  /** No usable Authorization header (and, where allowed, no session cookie). */
  missing: string;
  /** A value no resolver of the realm recognises. */
  unknown: string;
  cookies: boolean;
}

const REALMS: Record<AuthRealm, RealmRules> = {
  platform: { missing: ErrorText.unauthorized, unknown: ErrorText.unauthorized, cookies: true },
  production: { missing: ErrorText.missingApiKey, unknown: ErrorText.invalidApiKey, cookies: false },
};

/** First of the global chain: who is calling. Deny by default; `@Public()` opts out. */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: CredentialRegistry,
  ) {}

  async canActivate(execution: ExecutionContext): Promise<boolean> {
    const targets = [execution.getHandler(), execution.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const realm = this.reflector.getAllAndOverride<AuthRealm | undefined>(AUTH_REALM, targets) ?? 'platform';
    const rules = REALMS[realm];
    const request = execution.switchToHttp().getRequest<Request>();
    const credential = readCredential(request, rules);
    const resolver = this.credentials.find(realm, credential.token);
    if (!resolver) throw AppError.unauthorized(rules.unknown);
    contextOf(request).principal = await resolver.resolve(credential, request);
    return true;
  }
}

function readCredential(request: Request, rules: RealmRules): Credential {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = BEARER.exec(header);
    if (!match) throw AppError.unauthorized(rules.missing);
    return { token: match[1], source: 'header' };
  }
  if (rules.cookies) {
    const cookie = (request.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
    if (typeof cookie === 'string' && cookie.length > 0) return { token: cookie, source: 'cookie' };
  }
  throw AppError.unauthorized(rules.missing);
}
