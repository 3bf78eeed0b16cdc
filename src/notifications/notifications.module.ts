import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module';
import { OrdersModule } from '../orders/orders.module';
import { CarrierClient } from './carrier-client';
import { Mailer } from './mailer';
import { OutboxAdminController } from './outbox-admin.controller';
import { OutboxHandlers } from './outbox-handlers';
import { OutboxWorker } from './outbox-worker';
import { OutboxModule } from '../outbox/outbox.module';

/** Runs the outbox: carrier registration and mail, with retries, and shows what is stuck. */
@Module({
  imports: [OutboxModule, OrdersModule, IdentityModule],
  controllers: [OutboxAdminController],
  providers: [CarrierClient, Mailer, OutboxHandlers, OutboxWorker],
  exports: [OutboxWorker],
})
export class NotificationsModule {}
