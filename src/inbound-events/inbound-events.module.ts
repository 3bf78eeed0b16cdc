import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InboundEventEntity } from './inbound-event.entity';
import { InboundEvents } from './inbound-events';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([InboundEventEntity])],
  providers: [InboundEvents],
  exports: [InboundEvents],
})
export class InboundEventsModule {}
