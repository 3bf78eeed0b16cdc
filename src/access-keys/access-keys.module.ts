import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IntegrationKeyCredentialResolver } from './integration-key-credential.resolver';
import { IntegrationKeyEntity } from './integration-key.entity';
import { IntegrationKeysController } from './integration-keys.controller';
import { IntegrationKeysRepository } from './integration-keys.repository';
import { IntegrationKeysService } from './integration-keys.service';
import { OutboxModule } from '../outbox/outbox.module';
import { SecurityJournalModule } from '../security-journal/security-journal.module';
import { KeyExpiryReminders } from './key-expiry-reminders';
import { KeyChecks } from './key-checks';
import { IntegrationKeyOwners } from './integration-key-owners';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';

/** Integration keys: issue, list, revoke; and the `csh_at_` credential of the guard chain. */
@Module({
  imports: [
    IdempotencyModule,
    OutboxModule,
    RateLimitModule,
    SecurityJournalModule,
    TypeOrmModule.forFeature([IntegrationKeyEntity]),
  ],
  controllers: [IntegrationKeysController],
  providers: [
    IntegrationKeysRepository,
    IntegrationKeysService,
    IntegrationKeyCredentialResolver,
    KeyChecks,
    KeyExpiryReminders,
    IntegrationKeyOwners,
  ],
  exports: [KeyChecks, IntegrationKeyOwners],
})
export class AccessKeysModule {}
