import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessKeysModule } from '../access-keys/access-keys.module';
import { CatalogModule } from '../catalog/catalog.module';
import { DomainEventsModule } from '../domain-events/domain-events.module';
import { StockLedgerModule } from '../stock-ledger/stock-ledger.module';
import { OrderItemEntity } from './order-item.entity';
import { OrderEntity } from './order.entity';
import { OrderFulfilment } from './order-fulfilment';
import { OrderLifecycle } from './order-lifecycle';
import { OrderWriter } from './order-writer';
import { OrdersController } from './admin/orders.controller';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './admin/orders.service';
import { PartnerWebhookController } from './storefront/partner-webhook.controller';
import { PartnerWebhookService } from './storefront/partner-webhook.service';
import { PartnerPreflightService } from './storefront/partner-preflight.service';
import { RecentOrders } from './storefront/recent-orders';
import { SecurityJournalModule } from '../security-journal/security-journal.module';
import { OutboxModule } from '../outbox/outbox.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';

/** Orders: the storefront webhook and its preflight, platform orders and the admin read endpoints. */
@Module({
  imports: [
    IdempotencyModule,
    AccessKeysModule,
    DomainEventsModule,
    OutboxModule,
    SecurityJournalModule,
    TypeOrmModule.forFeature([OrderEntity, OrderItemEntity]),
    CatalogModule,
    StockLedgerModule,
  ],
  controllers: [OrdersController, PartnerWebhookController],
  providers: [
    OrdersRepository,
    OrdersService,
    OrderWriter,
    PartnerWebhookService,
    PartnerPreflightService,
    OrderFulfilment,
    OrderLifecycle,
    RecentOrders,
  ],
  exports: [OrdersService, OrderFulfilment, OrderLifecycle],
})
export class OrdersModule {}
