import { Injectable } from '@nestjs/common';
import { CredentialRegistry } from '../common/context/credential-registry';
import type { HttpRequest } from '../common/context/http-types';
import type { Principal } from '../common/context/principal';
import { AppError } from '../common/errors/app-error';
import { presentedPlatformCredential } from '../common/guards/authentication.guard';

/**
 * Who a request on a public route is signed in as, read only where the route needs to know
 * (accepting an invitation for an existing account). It resolves the credential through the same
 * resolvers as the guard chain, so a bad token gets the same 401, and a cookie session making a
 * change without its `X-CSRF-Token` the same 403. A request that presents nothing is nobody.
 */
@Injectable()
export class RequestSession {
  constructor(private readonly credentials: CredentialRegistry) {}

  async principalOf(request: HttpRequest): Promise<Principal | null> {
    const credential = presentedPlatformCredential(request);
    if (!credential) return null;
    const resolver = this.credentials.find('platform', credential.token);
    if (!resolver) throw AppError.unauthorized();
    return resolver.resolve(credential, request, { keyCheckedByStatement: false, permission: undefined });
  }
}
