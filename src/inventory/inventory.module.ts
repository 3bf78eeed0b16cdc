import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AcceptanceEntity } from './acceptance.entity';
import { AcceptancesRepository } from './acceptances.repository';
import { CatalogModule } from '../catalog/catalog.module';
import { InventoryController } from './inventory.controller';
import { InventoryService } from './inventory.service';
import { StockLedgerModule } from '../stock-ledger/stock-ledger.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';

/** Stock levels, adjustments, the ledger's read side, acceptances and the production queue. */
@Module({
  imports: [IdempotencyModule, TypeOrmModule.forFeature([AcceptanceEntity]), CatalogModule, StockLedgerModule],
  controllers: [InventoryController],
  providers: [AcceptancesRepository, InventoryService],
  exports: [InventoryService],
})
export class InventoryModule {}
