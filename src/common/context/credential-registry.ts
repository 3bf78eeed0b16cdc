import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from './principal';

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
  /** Cheap shape test on the raw token: decides which resolver answers, without any I/O. */
  accepts(token: string): boolean;
  /** Throws AppError 401 (with the exact text of the spec) when the credential is not good. */
  resolve(credential: Credential, request: Request): Promise<Principal>;
}

@Injectable()
export class CredentialRegistry {
  private readonly resolvers: CredentialResolver[] = [];

  register(resolver: CredentialResolver): void {
    this.resolvers.push(resolver);
  }

  find(token: string): CredentialResolver | undefined {
    return this.resolvers.find((resolver) => resolver.accepts(token));
  }
}
