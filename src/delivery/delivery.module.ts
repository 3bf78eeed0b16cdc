import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module';
import { DeliveryController } from './delivery.controller';
import { DeliveryService } from './delivery.service';
import { InboundEventsModule } from '../inbound-events/inbound-events.module';
import { OutboxModule } from '../outbox/outbox.module';
import { ReturnsModule } from '../returns/returns.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';

/** The carrier's signed delivery status events. */
@Module({
  imports: [IdempotencyModule, OutboxModule, InboundEventsModule, OrdersModule, ReturnsModule],
  controllers: [DeliveryController],
  providers: [DeliveryService],
})
export class DeliveryModule {}
