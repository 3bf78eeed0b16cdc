import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AcceptanceEntity } from './acceptance.entity';
import { StockLedger } from './stock-ledger';
import { StockMovementEntity } from './stock-movement.entity';

/** The stock ledger alone, so the catalog (initial stock) and orders can use it without cycles. */
@Module({
  imports: [TypeOrmModule.forFeature([StockMovementEntity, AcceptanceEntity])],
  providers: [StockLedger],
  exports: [StockLedger],
})
export class StockLedgerModule {}
