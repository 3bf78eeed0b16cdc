import { Global, Module } from '@nestjs/common';
import { CredentialRegistry } from './context/credential-registry';

/** Shared mechanisms every feature module uses. */
@Global()
@Module({
  providers: [CredentialRegistry],
  exports: [CredentialRegistry],
})
export class CommonModule {}
