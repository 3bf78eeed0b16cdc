import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../catalog/catalog.module';
import { InventoryModule } from '../inventory/inventory.module';
import { ProductionApiController } from './production-api.controller';
import { ProductionSiteEntity } from './production-site.entity';
import { ProductionSitesController } from './production-sites.controller';
import { ProductionSitesRepository } from './production-sites.repository';
import { ProductionSitesService } from './production-sites.service';
import { SiteKeyCredentialResolver } from './site-key-credential.resolver';
import { SiteKeyEntity } from './site-key.entity';
import { SecurityJournalModule } from '../security-journal/security-journal.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';

/** Production sites, their keys, and the production API realm those keys open. */
@Module({
  imports: [
    IdempotencyModule,
    SecurityJournalModule,
    TypeOrmModule.forFeature([ProductionSiteEntity, SiteKeyEntity]),
    CatalogModule,
    InventoryModule,
  ],
  controllers: [ProductionSitesController, ProductionApiController],
  providers: [ProductionSitesRepository, ProductionSitesService, SiteKeyCredentialResolver],
  exports: [ProductionSitesService],
})
export class ProductionSitesModule {}
