import { Injectable } from '@nestjs/common';
import type { HttpRequest } from './http-types';
import type { Principal } from './principal';
import type { Permission } from './permissions';

/**
 * A realm is a family of routes with its own credentials and its own error texts: the platform
 * (sessions and integration keys) or the production API (site keys). A credential never crosses.
 */
export type AuthRealm = 'platform' | 'production';

/** What a resolver may know of the route a credential is presented to. */
export interface CredentialRoute {
  /** The route's statement checks an integration key's liveness itself (`@KeyCheckedByStatement`). */
  readonly keyCheckedByStatement: boolean;
  readonly permission: Permission | undefined;
}

export interface Credential {
  readonly token: string;
  /** `header` for `Authorization: Bearer`, `cookie` for the browser session cookie. */
  readonly source: 'header' | 'cookie';
}

/**
 * One kind of credential (session JWT, integration key, site key). Each module that owns a kind
 * registers its resolver here; the authentication guard stays the single entry point.
 */
export interface CredentialResolver {
  readonly realm: AuthRealm;
  /** Cheap shape test on the raw token: decides which resolver answers, without any I/O. */
  accepts(token: string): boolean;
  /**
   * Throws AppError 401 (with the exact text of the spec) when the credential is not good. `route`
   * is what the route declares (a resolver may leave part of its check to a route that makes it
   * in its own statement). A resolver that can answer without I/O (a key known to this instance,
   * a cached site key) returns the principal itself, and the guard chain goes on without waiting
   * a turn.
   */
  resolve(credential: Credential, request: HttpRequest, route: CredentialRoute): Principal | Promise<Principal>;
}

@Injectable()
export class CredentialRegistry {
  private readonly resolvers: CredentialResolver[] = [];

  register(resolver: CredentialResolver): void {
    this.resolvers.push(resolver);
  }

  find(realm: AuthRealm, token: string): CredentialResolver | undefined {
    return this.resolvers.find((resolver) => resolver.realm === realm && resolver.accepts(token));
  }
}
