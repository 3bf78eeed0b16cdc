import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import { parse as parseCookies } from 'cookie';
import type { HttpRequest } from '../context/http-types';
import { headerOf, isRepeated } from '../http/header-of';
import { contextOf, requestOf } from '../context/context-of';
import type { Principal } from '../context/principal';
import { AuthRealm, Credential, CredentialRegistry } from '../context/credential-registry';
import type { Environment } from '../../config/environment';
import { WebhookPrincipal } from '../context/webhook-principal';
import type { WebhookFlow } from '../decorators/auth-metadata';
import { routeAccessOf } from './route-access';
import { verifySignature } from '../webhooks/webhook-signature';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';

export const SESSION_COOKIE = 'session';
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

interface RealmRules {
  /** No Authorization header (and, where allowed, no session cookie). */
  missing: string;
  /** A header that is not `Bearer <token>`, or a token no resolver of the realm recognises. */
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
  private readonly secrets: Record<WebhookFlow, string | undefined>;

  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: CredentialRegistry,
    config: ConfigService<Environment, true>,
  ) {
    this.secrets = {
      payment: config.get('PAYMENT_WEBHOOK_SECRET', { infer: true }),
      carrier: config.get('CARRIER_WEBHOOK_SECRET', { infer: true }),
    };
  }

  /** Answers at once when the credential needs no I/O: Nest then calls the next guard in this turn. */
  canActivate(execution: ExecutionContext): boolean | Promise<boolean> {
    const request = requestOf(execution);
    // Node keeps the first of two; which one a proxy or a log would read is anyone's guess.
    if (request.headers.authorization !== undefined && isRepeated(request, 'authorization')) {
      throw AppError.badRequest([ErrorText.repeatedAuthorization]);
    }
    const access = routeAccessOf(this.reflector, execution);
    if (access.isPublic) return true;
    const flow = access.signed;
    if (flow) {
      // The signature covers the bytes as received, not the parsed JSON.
      const raw = (request as HttpRequest & { rawBody?: Buffer }).rawBody;
      if (!verifySignature(this.secrets[flow], headerOf(request, 'x-signature'), raw)) {
        throw AppError.unauthorized(ErrorText.invalidSignature);
      }
      contextOf(request).principal = new WebhookPrincipal(flow);
      return true;
    }
    const rules = REALMS[access.realm];
    const credential = readCredential(request, rules);
    const resolver = this.credentials.find(access.realm, credential.token);
    if (!resolver) throw AppError.unauthorized(rules.unknown);
    const principal = resolver.resolve(credential, request, access);
    if (principal instanceof Promise) return principal.then((resolved) => admit(request, resolved));
    return admit(request, principal);
  }
}

function admit(request: HttpRequest, principal: Principal): true {
  contextOf(request).principal = principal;
  return true;
}

/**
 * The platform credential a request presents, or null when it presents none, for a public route
 * that needs a session in some cases only (accepting an invitation as an existing account). The
 * caller resolves it through the CredentialRegistry, so it gets the same checks (and the CSRF
 * rule of a cookie) as the guard would make. A header that is not `Bearer <token>` is refused.
 */
export function presentedPlatformCredential(request: HttpRequest): Credential | null {
  const cookies = request.headers.cookie;
  const cookie = cookies ? parseCookies(cookies)[SESSION_COOKIE] : undefined;
  if (request.headers.authorization === undefined && !cookie) return null;
  return readCredential(request, REALMS.platform);
}

function readCredential(request: HttpRequest, rules: RealmRules): Credential {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = BEARER.exec(header);
    // Present but not a bearer token: a wrong credential, not a missing one.
    if (!match) throw AppError.unauthorized(rules.unknown);
    return { token: match[1], source: 'header' };
  }
  // Parsed here, only for a request that may use it, rather than for every request by a middleware.
  const cookies = rules.cookies ? request.headers.cookie : undefined;
  if (cookies) {
    const cookie = parseCookies(cookies)[SESSION_COOKIE];
    if (cookie) return { token: cookie, source: 'cookie' };
  }
  throw AppError.unauthorized(rules.missing);
}
