import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CredentialRegistry } from './context/credential-registry';
import { RequestOutcomes } from './http/request-outcomes';
import { RouteTemplates } from './http/route-templates';

/** Shared mechanisms every feature module uses. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [CredentialRegistry, RequestOutcomes, RouteTemplates],
  exports: [CredentialRegistry, RequestOutcomes],
})
export class CommonModule {}
