import { Global, Module } from '@nestjs/common';
import { CredentialRegistry } from './context/credential-registry';
import { RequestOutcomes } from './http/request-outcomes';

/** Shared mechanisms every feature module uses. */
@Global()
@Module({
  providers: [CredentialRegistry, RequestOutcomes],
  exports: [CredentialRegistry, RequestOutcomes],
})
export class CommonModule {}
