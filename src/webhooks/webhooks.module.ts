import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxModule } from '../outbox/outbox.module';
import { SecurityJournalModule } from '../security-journal/security-journal.module';
import { SecretsModule } from '../common/secrets/secrets.module';
import { WebhookAttemptEntity } from './webhook-attempt.entity';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { DeliveryWake } from './delivery-wake';
import { WebhookFanOut } from './webhook-fan-out';
import { DomainEventsModule } from '../domain-events/domain-events.module';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookMessageEntity } from './webhook-message.entity';
import { WebhookFigures } from './webhook-figures';
import { IdempotencyModule } from '../idempotency/idempotency.module';

/**
 * Outbound events to integrations (contract §10): endpoints, their sealed secrets, the delivery
 * worker, and the fan-out of every domain event to the endpoints subscribed (WebhookFanOut).
 */
@Module({
  imports: [
    IdempotencyModule,
    DomainEventsModule,
    TypeOrmModule.forFeature([
      WebhookEndpointEntity,
      WebhookMessageEntity,
      WebhookDeliveryEntity,
      WebhookAttemptEntity,
    ]),
    OutboxModule,
    SecretsModule,
    SecurityJournalModule,
  ],
  controllers: [WebhookEndpointsController],
  providers: [
    DeliveryWake,
    WebhookDeliveriesRepository,
    WebhookDispatcher,
    WebhookEndpointsRepository,
    WebhookEndpointsService,
    WebhookFanOut,
    WebhookFigures,
  ],
  exports: [WebhookFigures],
})
export class WebhooksModule {}
