import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEventEntity } from './domain-event.entity';

/** The events of orders and returns, appended by their owners (DomainEventsSql), delivered by the outbound webhooks. */
@Module({ imports: [TypeOrmModule.forFeature([DomainEventEntity])] })
export class DomainEventsModule {}
