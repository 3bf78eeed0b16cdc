import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_GUARD } from '@nestjs/core';
import { CommonModule } from './common/common.module';
import { AuthenticationGuard } from './common/guards/authentication.guard';
import { BrandContextGuard } from './common/guards/brand-context.guard';
import { PermissionGuard } from './common/guards/permission.guard';
import { UnreadBodyGuard } from './common/validation/unread-body.guard';
import { RateLimitGuard } from './common/rate-limit/rate-limit.guard';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { validateEnvironment } from './config/environment';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { IdentityModule } from './identity/identity.module';
import { LoggingModule } from './logging.module';
import { MetricsModule } from './metrics/metrics.module';
import { AccessKeysModule } from './access-keys/access-keys.module';
import { AdminAreaModule } from './admin-area/admin-area.module';
import { CatalogModule } from './catalog/catalog.module';
import { InventoryModule } from './inventory/inventory.module';
import { DeliveryModule } from './delivery/delivery.module';
import { EventsApiModule } from './events-api/events-api.module';
import { InboundEventsModule } from './inbound-events/inbound-events.module';
import { NotificationsModule } from './notifications/notifications.module';
import { OutboxModule } from './outbox/outbox.module';
import { PaymentsModule } from './payments/payments.module';
import { PersonalDataModule } from './personal-data/personal-data.module';
import { OrdersModule } from './orders/orders.module';
import { ProductionSitesModule } from './production-sites/production-sites.module';
import { RequestLogModule } from './request-log/request-log.module';
import { ReturnsModule } from './returns/returns.module';
import { SecurityJournalModule } from './security-journal/security-journal.module';
import { WebhooksModule } from './webhooks/webhooks.module';

export interface AppModuleOptions {
  /** The resolved database: DATABASE_URL, or the embedded server main.ts started. */
  databaseUrl: string;
  /** Variables that win over process.env (tests run several differently configured apps). */
  env?: Record<string, string>;
}

@Module({})
export class AppModule {
  static register(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // Loaded (not `validate`d) so the validated values never leak back into process.env,
        // and skipProcessEnv so nothing is read around the validation.
        ConfigModule.forRoot({
          isGlobal: true,
          ignoreEnvFile: true,
          skipProcessEnv: true,
          load: [() => ({ ...validateEnvironment({ ...process.env, ...options.env }) })],
        }),
        LoggingModule,
        CommonModule,
        RateLimitModule,
        DatabaseModule.forRoot(options.databaseUrl),
        HealthModule,
        SecurityJournalModule,
        IdentityModule,
        AccessKeysModule,
        OutboxModule,
        InboundEventsModule,
        CatalogModule,
        InventoryModule,
        ProductionSitesModule,
        OrdersModule,
        ReturnsModule,
        PaymentsModule,
        DeliveryModule,
        NotificationsModule,
        WebhooksModule,
        EventsApiModule,
        PersonalDataModule,
        RequestLogModule,
        AdminAreaModule,
        MetricsModule,
      ],
      providers: [
        // The guard chain, in this order: who is calling, within their rate, in which brand, may they
        // (and have they proved their account lately where that matters), and does a route that takes
        // no body get none.
        { provide: APP_GUARD, useClass: AuthenticationGuard },
        { provide: APP_GUARD, useExisting: RateLimitGuard },
        { provide: APP_GUARD, useClass: BrandContextGuard },
        { provide: APP_GUARD, useClass: PermissionGuard },
        { provide: APP_GUARD, useClass: UnreadBodyGuard },
      ],
    };
  }
}
