import { Injectable, OnModuleInit } from '@nestjs/common';
import { Credential, CredentialRegistry, CredentialResolver } from '../common/context/credential-registry';
import { contextOf } from '../common/context/context-of';
import type { HttpRequest } from '../common/context/http-types';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { isAllowed } from './address-allowlist';
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
    private readonly journal: SecurityJournal,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  accepts(token: string): boolean {
    return token.startsWith(INTEGRATION_KEY_PREFIX);
  }

  async resolve(credential: Credential, request: HttpRequest): Promise<IntegrationKeyPrincipal> {
    // A key is a header credential only; a cookie holding one is not how keys are sent.
    if (credential.source !== 'header') throw AppError.unauthorized();
    const ctx = contextOf(request);
    const principal = await this.keys.verify(credential.token, ctx.ip);
    if (!principal) throw AppError.unauthorized();
    // Before any permission: a key pinned to addresses works from those only (contract §12).
    if (principal.allowedIps && !isAllowed(principal.allowedIps, ctx.ip)) {
      ctx.principal = principal;
      await this.journal.record(ctx, {
        type: 'ip_not_allowed',
        brandId: principal.boundBrandId,
        details: { keyId: principal.id, name: principal.name, ip: ctx.ip },
      });
      throw AppError.forbidden(ErrorText.addressNotAllowed);
    }
    return principal;
  }
}
