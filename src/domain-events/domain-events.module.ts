import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SecurityJournalModule } from '../security-journal/security-journal.module';
import { DomainEventEntity } from './domain-event.entity';
import { DomainEvents } from './domain-events';
import { EventsController } from './events.controller';
import { EventsHorizon } from './events-horizon';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

/**
 * The events of orders, returns, stock and products, appended by their owners (DomainEvents.sql); the outbound
 * webhooks subscribe to them (DomainEventSubscriber), so the owners need not know who listens,
 * and integrations read them back through the events API (contract §16).
 */
@Module({
  imports: [TypeOrmModule.forFeature([DomainEventEntity]), SecurityJournalModule],
  controllers: [EventsController],
  providers: [DomainEvents, EventsRepository, EventsService, EventsHorizon],
  exports: [DomainEvents, EventsHorizon],
})
export class DomainEventsModule {}
