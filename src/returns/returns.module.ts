import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEventsModule } from '../domain-events/domain-events.module';
import { OrdersModule } from '../orders/orders.module';
import { SecurityJournalModule } from '../security-journal/security-journal.module';
import { StockLedgerModule } from '../stock-ledger/stock-ledger.module';
import { ReturnItemEntity } from './return-item.entity';
import { ReturnNumberEntity } from './return-number.entity';
import { ReturnEntity } from './return.entity';
import { ReturnsController } from './returns.controller';
import { ReturnsRepository } from './returns.repository';
import { ReturnsService } from './returns.service';
import { IdempotencyModule } from '../idempotency/idempotency.module';

/** Returns of orders' units: their states, receipts (restock through the ledger) and refunds. */
@Module({
  imports: [
    IdempotencyModule,
    TypeOrmModule.forFeature([ReturnEntity, ReturnItemEntity, ReturnNumberEntity]),
    DomainEventsModule,
    OrdersModule,
    SecurityJournalModule,
    StockLedgerModule,
  ],
  controllers: [ReturnsController],
  providers: [ReturnsRepository, ReturnsService],
  exports: [ReturnsService],
})
export class ReturnsModule {}
