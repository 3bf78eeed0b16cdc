import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { contextOf } from '../context/context-of';
import { Credential, CredentialRegistry } from '../context/credential-registry';
import { IS_PUBLIC } from '../decorators/auth-metadata';
import { AppError } from '../errors/app-error';

export const SESSION_COOKIE = 'session';
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** First of the global chain: who is calling. Deny by default; `@Public()` opts out. */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: CredentialRegistry,
  ) {}

  async canActivate(execution: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [execution.getHandler(), execution.getClass()])) {
      return true;
    }
    const request = execution.switchToHttp().getRequest<Request>();
    const credential = readCredential(request);
    const resolver = this.credentials.find(credential.token);
    if (!resolver) throw AppError.unauthorized();
    contextOf(request).principal = await resolver.resolve(credential, request);
    return true;
  }
}

function readCredential(request: Request): Credential {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = BEARER.exec(header);
    if (!match) throw AppError.unauthorized();
    return { token: match[1], source: 'header' };
  }
  const cookie = (request.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
  if (typeof cookie === 'string' && cookie.length > 0) return { token: cookie, source: 'cookie' };
  throw AppError.unauthorized();
}
