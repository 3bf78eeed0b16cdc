import { Injectable, OnModuleInit } from '@nestjs/common';
import { Credential, CredentialRegistry, CredentialResolver } from '../common/context/credential-registry';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { ProductionSitesService } from './production-sites.service';
import { SiteKeyPrincipal } from './site-key.principal';

/** The production API's only credential. Anything else there, integration keys included, is refused. */
@Injectable()
export class SiteKeyCredentialResolver implements CredentialResolver, OnModuleInit {
  readonly realm = 'production' as const;

  constructor(
    private readonly registry: CredentialRegistry,
    private readonly sites: ProductionSitesService,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  accepts(): boolean {
    return true;
  }

  resolve(credential: Credential): SiteKeyPrincipal | Promise<SiteKeyPrincipal> {
    const remembered = this.sites.recall(credential.token);
    if (remembered !== undefined) return this.admit(remembered);
    return this.sites.verify(credential.token).then((principal) => this.admit(principal));
  }

  private admit(principal: SiteKeyPrincipal | null): SiteKeyPrincipal {
    if (!principal) throw AppError.unauthorized(ErrorText.invalidApiKey);
    this.sites.touch(principal.id);
    return principal;
  }
}
