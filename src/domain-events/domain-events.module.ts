import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEventEntity } from './domain-event.entity';
import { DomainEvents } from './domain-events';
import { EventFloorEntity } from './event-floor.entity';
import { EventsCommitted } from './events-committed';
import { EventsHorizon } from './events-horizon';
import { EventsPruning } from './events-pruning';
import { EventsRepository } from './events.repository';

/**
 * The events their owners append (DomainEvents.sql); the outbound
 * webhooks subscribe to them (DomainEventSubscriber), so the owners need not know who listens,
 * and the events API (src/events-api, contract §16) reads them back.
 */
@Module({
  imports: [TypeOrmModule.forFeature([DomainEventEntity, EventFloorEntity])],
  providers: [DomainEvents, EventsCommitted, EventsRepository, EventsHorizon, EventsPruning],
  exports: [DomainEvents, EventsCommitted, EventsRepository, EventsHorizon, EventsPruning],
})
export class DomainEventsModule {}
