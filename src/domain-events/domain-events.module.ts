import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEventEntity } from './domain-event.entity';
import { DomainEvents } from './domain-events';
import { EventsCommitted } from './events-committed';
import { EventsHorizon } from './events-horizon';
import { EventsRepository } from './events.repository';

/**
 * The events their owners append (DomainEvents.sql); the outbound
 * webhooks subscribe to them (DomainEventSubscriber), so the owners need not know who listens,
 * and the events API (src/events-api, contract §16) reads them back.
 */
@Module({
  imports: [TypeOrmModule.forFeature([DomainEventEntity])],
  providers: [DomainEvents, EventsCommitted, EventsRepository, EventsHorizon],
  exports: [DomainEvents, EventsCommitted, EventsRepository, EventsHorizon],
})
export class DomainEventsModule {}
