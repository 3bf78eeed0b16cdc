import { Injectable, OnModuleInit } from '@nestjs/common';
import { Credential, CredentialRegistry, CredentialResolver } from '../common/context/credential-registry';
import { AppError } from '../common/errors/app-error';
import { INTEGRATION_KEY_PREFIX } from './integration-key-format';
import { IntegrationKeyPrincipal } from './integration-key.principal';
import { IntegrationKeysService } from './integration-keys.service';

/** Bearer values starting with `csh_at_`. Unknown, revoked, expired or orphaned: 401 Unauthorized. */
@Injectable()
export class IntegrationKeyCredentialResolver implements CredentialResolver, OnModuleInit {
  readonly realm = 'platform' as const;

  constructor(
    private readonly registry: CredentialRegistry,
    private readonly keys: IntegrationKeysService,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  accepts(token: string): boolean {
    return token.startsWith(INTEGRATION_KEY_PREFIX);
  }

  async resolve(credential: Credential): Promise<IntegrationKeyPrincipal> {
    // A key is a header credential only; a cookie holding one is not how keys are sent.
    if (credential.source !== 'header') throw AppError.unauthorized();
    const principal = await this.keys.verify(credential.token);
    if (!principal) throw AppError.unauthorized();
    return principal;
  }
}
