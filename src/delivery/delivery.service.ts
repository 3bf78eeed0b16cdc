import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { InboundEvents } from '../inbound-events/inbound-events';
import { Outbox } from '../outbox/outbox';
import { OrderLifecycle } from '../orders/order-lifecycle';
import { ReturnsService } from '../returns/returns.service';
import type { CarrierEventDto } from './dto/carrier-event.dto';
import { Transactions } from '../database/transactions';

/**
 * Carrier status events (contract §7), applied per shipment in occurredAt order: an event older
 * than the last one applied is recorded and changes nothing. What a status does to the order is
 * the order lifecycle's.
 */
@Injectable()
export class DeliveryService {
  constructor(
    private readonly transactions: Transactions,
    private readonly events: InboundEvents,
    private readonly lifecycle: OrderLifecycle,
    private readonly outbox: Outbox,
    private readonly returns: ReturnsService,
  ) {}

  async handle(event: CarrierEventDto): Promise<{ ok: true; duplicate?: true }> {
    const occurredAt = new Date(event.occurredAt);
    return this.transactions.run(async (tx) => {
      const order = await this.lifecycle.lockByShipment(tx, event);
      if (!order) throw AppError.notFound();

      const stale = order.deliveryStatusAt !== null && occurredAt <= order.deliveryStatusAt;
      const fresh = await this.events.record(tx, {
        flow: 'carrier',
        eventId: event.eventId,
        orderId: order.id,
        outcome: stale ? 'out_of_order' : 'applied',
        payload: { ...event },
      });
      if (!fresh) return { ok: true, duplicate: true };
      if (stale) return { ok: true };

      await this.lifecycle.applyCarrierStatus(tx, order, {
        status: event.status,
        occurredAt,
        trackingNumber: event.trackingNumber,
      });
      // Goods the carrier had (the order was found by its shipment) coming back: a carrier return, once (§9).
      if (
        (order.status === 'paid' || order.status === 'shipped') &&
        (event.status === 'returned' || event.status === 'not_delivered')
      ) {
        await this.returns.openCarrierReturn(tx, order.id);
      }
      if (order.recipientEmail && event.status !== order.deliveryStatus) {
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
