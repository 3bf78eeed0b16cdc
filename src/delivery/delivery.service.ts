import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { InboundEvents } from '../inbound-events/inbound-events';
import { Outbox } from '../notifications/outbox';
import type { OrderStatus } from '../orders/order.entity';
import type { CarrierEventDto } from './dto/carrier-event.dto';
import { nextOrderStatus } from './order-status-from-carrier';

/**
 * Carrier status events (contract §7), applied per shipment in occurredAt order: an event older
 * than the last one applied is recorded and changes nothing.
 */
@Injectable()
export class DeliveryService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: InboundEvents,
    private readonly outbox: Outbox,
  ) {}

  async handle(event: CarrierEventDto): Promise<{ ok: true; duplicate?: true }> {
    const occurredAt = new Date(event.occurredAt);
    return this.db.transaction(async (tx) => {
      const orders: Array<{
        id: number;
        status: OrderStatus;
        delivery_status: string | null;
        delivery_status_at: Date | null;
        recipient_email: string | null;
      }> = await tx.query(
        `SELECT id, status, delivery_status, delivery_status_at, recipient_email FROM orders
            WHERE ($1::text IS NOT NULL AND carrier_order_uuid = $1) OR ($2::text IS NOT NULL AND carrier_tracking_number = $2)
            ORDER BY id LIMIT 1 FOR UPDATE`,
        [event.carrierOrderUuid ?? null, event.trackingNumber ?? null],
      );
      const order = orders[0];
      if (!order) throw AppError.notFound();

      const stale = order.delivery_status_at !== null && occurredAt <= order.delivery_status_at;
      const fresh = await this.events.record(tx, {
        flow: 'carrier',
        eventId: event.eventId,
        orderId: order.id,
        outcome: stale ? 'out_of_order' : 'applied',
        payload: { ...event },
      });
      if (!fresh) return { ok: true, duplicate: true };
      if (stale) return { ok: true };

      const status = nextOrderStatus(order.status, event.status);
      await tx.query(
        `UPDATE orders SET delivery_status = $2, delivery_status_at = $3, status = $4,
                carrier_tracking_number = COALESCE(carrier_tracking_number, $5)
          WHERE id = $1`,
        [order.id, event.status, occurredAt, status, event.trackingNumber ?? null],
      );
      if (order.recipient_email && event.status !== order.delivery_status) {
        await this.outbox.enqueue(tx, [
          {
            kind: 'mail.delivery_status',
            payload: { orderId: order.id, status: event.status },
            dedupeKey: `delivery_status:${event.eventId}`,
          },
        ]);
      }
      return { ok: true };
    });
  }
}
