import { Module } from '@nestjs/common';
import { StockLedgerModule } from '../inventory/stock-ledger.module';
import { PaymentsController } from './payments.controller';
import { PaymentsService } from './payments.service';

/** The bank's signed payment confirmations. */
@Module({
  imports: [StockLedgerModule],
  controllers: [PaymentsController],
  providers: [PaymentsService],
})
export class PaymentsModule {}
