import { Module } from '@nestjs/common';
import { DomainEventsModule } from '../domain-events/domain-events.module';
import { SecurityJournalModule } from '../security-journal/security-journal.module';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';

/**
 * The events API (contract §16): integrations read their brand's events back, each family by the
 * permission its owner declared. It reads the store through DomainEventsModule's repository.
 */
@Module({
  imports: [DomainEventsModule, SecurityJournalModule],
  controllers: [EventsController],
  providers: [EventsService],
})
export class EventsApiModule {}
