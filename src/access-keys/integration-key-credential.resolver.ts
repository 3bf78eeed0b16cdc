import { Injectable, OnModuleInit } from '@nestjs/common';
import {
  Credential,
  CredentialRegistry,
  CredentialResolver,
  type CredentialRoute,
} from '../common/context/credential-registry';
import type { HttpRequest } from '../common/context/http-types';
import type { Principal } from '../common/context/principal';
import { AppError } from '../common/errors/app-error';
import { INTEGRATION_KEY_PREFIX } from './integration-key-format';
import { KeyChecks } from './key-checks';

/** Bearer values starting with `csh_at_`. Unknown, revoked, expired or orphaned: 401 Unauthorized. */
@Injectable()
export class IntegrationKeyCredentialResolver implements CredentialResolver, OnModuleInit {
  readonly realm = 'platform' as const;

  constructor(
    private readonly registry: CredentialRegistry,
    private readonly checks: KeyChecks,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  accepts(token: string): boolean {
    return token.startsWith(INTEGRATION_KEY_PREFIX);
  }

  resolve(credential: Credential, request: HttpRequest, route: CredentialRoute): Principal | Promise<Principal> {
    // A key is a header credential only; a cookie holding one is not how keys are sent.
    if (credential.source !== 'header') throw AppError.unauthorized();
    return route.keyCheckedByStatement
      ? this.checks.defer(credential.token, request, route.permission ?? null)
      : this.checks.check(credential.token, request);
  }
}
