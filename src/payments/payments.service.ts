import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { InboundEvents } from '../inbound-events/inbound-events';
import { OrderLifecycle, type PayableOrder } from '../orders/order-lifecycle';
import { SecurityJournal } from '../security-journal/security-journal.service';
import type { PaymentEventDto } from './dto/payment-event.dto';
import { Transactions } from '../database/transactions';

export type PaymentOutcome = { ok: true; duplicate?: true };

/**
 * The bank's payment confirmations (contract §7): the signature (by the guard), the event's
 * idempotency, the amount check and its journal entry. What a payment does to the order is the
 * order lifecycle's, in the same transaction as the event's record; its carrier and mail steps
 * are outbox jobs of that transaction, so the bank gets its answer before them.
 */
@Injectable()
export class PaymentsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly events: InboundEvents,
    private readonly lifecycle: OrderLifecycle,
    private readonly journal: SecurityJournal,
  ) {}

  async handle(ctx: RequestContext, event: PaymentEventDto): Promise<PaymentOutcome> {
    return this.transactions.run(async (tx) => {
      const order = await this.lifecycle.lockByNumber(tx, event.orderNumber.trim());
      // Not recorded: the bank's retry can still apply once the order exists.
      if (!order) throw AppError.notFound();

      const outcome = this.outcomeOf(order, event);
      const fresh = await this.events.record(tx, {
        flow: 'payment',
        eventId: event.eventId,
        orderId: order.id,
        outcome,
        payload: { ...event },
      });
      if (!fresh) return { ok: true, duplicate: true };

      if (outcome === 'order_cancelled') {
        await this.journal.recordWith(tx, ctx, {
          type: 'payment_for_cancelled_order',
          brandId: order.brandId,
          actor: { kind: 'webhook', id: null },
          details: { eventId: event.eventId, orderNumber: order.orderNumber, status: event.status },
        });
      } else if (outcome === 'amount_mismatch') {
        await this.journal.recordWith(tx, ctx, {
          type: 'payment_amount_mismatch',
          brandId: order.brandId,
          actor: { kind: 'webhook', id: null },
          details: {
            eventId: event.eventId,
            orderNumber: order.orderNumber,
            expectedKopeks: order.totalKopeks,
            receivedKopeks: event.amountKopeks,
          },
        });
      } else if (outcome === 'paid') {
        await this.lifecycle.markPaid(tx, order, new Date(event.paidAt));
      }
      return { ok: true };
    });
  }

  private outcomeOf(order: PayableOrder, event: PaymentEventDto): string {
    // A cancelled order takes no payment: the event is recorded and journaled, nothing moves.
    if (order.status === 'cancelled') return 'order_cancelled';
    if (event.status === 'failed') return 'failed';
    if (event.amountKopeks !== order.totalKopeks) return 'amount_mismatch';
    return order.paid ? 'already_paid' : 'paid';
  }
}
