import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEventsModule } from '../domain-events/domain-events.module';
import { StockLedgerModule } from '../stock-ledger/stock-ledger.module';
import { CatalogController } from './catalog.controller';
import { CatalogMatcher } from './catalog-matcher';
import { CatalogRepository } from './catalog.repository';
import { CatalogService } from './catalog.service';
import { CatalogImportRepository } from './catalog-import.repository';
import { CatalogImportService } from './catalog-import.service';
import { CatalogImportSlots } from './catalog-import-slots';
import { CatalogImportTurns } from './catalog-import-turns';
import { CatalogImportUploadInterceptor } from './catalog-import-upload.interceptor';
import { ProductSizeEntity } from './product-size.entity';
import { ProductEntity } from './product.entity';
import { SecurityJournalModule } from '../security-journal/security-journal.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';

/** Products with their own and storefront articles, legacy sizes, and line matching. */
@Module({
  imports: [
    IdempotencyModule,
    SecurityJournalModule,
    TypeOrmModule.forFeature([ProductEntity, ProductSizeEntity]),
    StockLedgerModule,
    DomainEventsModule,
  ],
  controllers: [CatalogController],
  providers: [
    CatalogRepository,
    CatalogService,
    CatalogMatcher,
    CatalogImportRepository,
    CatalogImportService,
    CatalogImportSlots,
    CatalogImportTurns,
    CatalogImportUploadInterceptor,
  ],
  exports: [CatalogService, CatalogMatcher],
})
export class CatalogModule {}
