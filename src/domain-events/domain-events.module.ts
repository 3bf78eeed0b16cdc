import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEventEntity } from './domain-event.entity';
import { DomainEvents } from './domain-events';

/**
 * The events of orders and returns, appended by their owners (DomainEvents.sql); the outbound
 * webhooks subscribe to them (DomainEventSubscriber), so the owners need not know who listens.
 */
@Module({
  imports: [TypeOrmModule.forFeature([DomainEventEntity])],
  providers: [DomainEvents],
  exports: [DomainEvents],
})
export class DomainEventsModule {}
