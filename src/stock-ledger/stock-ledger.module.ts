import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEventsModule } from '../domain-events/domain-events.module';
import { StockLedger } from './stock-ledger';
import { StockMovementEntity } from './stock-movement.entity';
// Before the database starts: the ledger's event columns on DomainEventEntity (keepColumnsOf).
import './stock-event.entity';

/** The stock ledger alone (Inventory's), so the catalog (initial stock), inventory and orders use it without cycles. */
@Module({
  imports: [TypeOrmModule.forFeature([StockMovementEntity]), DomainEventsModule],
  providers: [StockLedger],
  exports: [StockLedger],
})
export class StockLedgerModule {}
