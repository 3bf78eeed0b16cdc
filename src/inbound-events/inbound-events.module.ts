import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InboundEventEntity } from './inbound-event.entity';
import { InboundEvents } from './inbound-events';

/** Processed event ids per inbound flow: the idempotency of the signed webhooks. */
@Module({
  imports: [TypeOrmModule.forFeature([InboundEventEntity])],
  providers: [InboundEvents],
  exports: [InboundEvents],
})
export class InboundEventsModule {}
