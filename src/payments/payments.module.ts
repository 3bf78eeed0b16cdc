import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module';
import { PaymentsController } from './payments.controller';
import { PaymentsService } from './payments.service';
import { SecurityJournalModule } from '../security-journal/security-journal.module';
import { InboundEventsModule } from '../inbound-events/inbound-events.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';

/** The bank's signed payment confirmations. */
@Module({
  imports: [IdempotencyModule, InboundEventsModule, SecurityJournalModule, OrdersModule],
  controllers: [PaymentsController],
  providers: [PaymentsService],
})
export class PaymentsModule {}
