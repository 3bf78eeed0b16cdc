import { Module } from '@nestjs/common';
import { DomainEventsModule } from '../domain-events/domain-events.module';
import { SecurityJournalModule } from '../security-journal/security-journal.module';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import { EventWaits } from './event-waits';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';

/**
 * The events API (contract §16): integrations read their brand's events back, each family by the
 * permission its owner declared. It reads the store through DomainEventsModule's repository and
 * waits for its commits (EventsCommitted) in long polls (§20).
 */
@Module({
  imports: [DomainEventsModule, SecurityJournalModule, RateLimitModule],
  controllers: [EventsController],
  providers: [EventsService, EventWaits],
})
export class EventsApiModule {}
