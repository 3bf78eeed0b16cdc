import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Environment } from '../../config/environment';
import { loadSecretsKey, SecretBox } from './secret-box';

/** The one SecretBox (SECRETS_ENCRYPTION_KEY) of every module that keeps a secret sealed at rest. */
@Module({
  providers: [
    {
      provide: SecretBox,
      inject: [ConfigService],
      useFactory: async (config: ConfigService<Environment, true>) =>
        new SecretBox(
          await loadSecretsKey(
            config.get('SECRETS_ENCRYPTION_KEY', { infer: true }),
            config.get('DATA_DIR', { infer: true }),
          ),
        ),
    },
  ],
  exports: [SecretBox],
})
export class SecretsModule {}
