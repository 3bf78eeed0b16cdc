import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { InboundEvents } from '../inbound-events/inbound-events';
import { StockLedger } from '../inventory/stock-ledger';
import { Outbox, type OutboxEntry } from '../notifications/outbox';
import { SecurityJournal } from '../security-journal/security-journal.service';
import type { PaymentEventDto } from './dto/payment-event.dto';

interface LockedOrder {
  id: number;
  brand_id: number;
  order_number: string;
  total_kopeks: string;
  payment_status: string;
  stock_deducted_at: Date | null;
  carrier_order_uuid: string | null;
  recipient_email: string | null;
}

export type PaymentOutcome = { ok: true; duplicate?: true };

/**
 * The bank's payment confirmations (contract §7). Everything the event changes happens in one
 * transaction with its record; the carrier and mail steps are outbox jobs written in that same
 * transaction, so the bank gets its answer before them and an outage loses nothing.
 */
@Injectable()
export class PaymentsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: InboundEvents,
    private readonly ledger: StockLedger,
    private readonly outbox: Outbox,
    private readonly journal: SecurityJournal,
  ) {}

  async handle(ctx: RequestContext, event: PaymentEventDto): Promise<PaymentOutcome> {
    return this.db.transaction(async (tx) => {
      const orders: LockedOrder[] = await tx.query(
        `SELECT id, brand_id, order_number, total_kopeks, payment_status, stock_deducted_at, carrier_order_uuid, recipient_email
           FROM orders WHERE order_number = $1 FOR UPDATE`,
        [event.orderNumber.trim()],
      );
      const order = orders[0];
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

      if (outcome === 'amount_mismatch') {
        await this.journal.recordWith(tx, ctx, {
          type: 'payment_amount_mismatch',
          brandId: order.brand_id,
          actor: { kind: 'webhook', id: null },
          details: {
            eventId: event.eventId,
            orderNumber: order.order_number,
            expectedKopeks: Number(order.total_kopeks),
            receivedKopeks: event.amountKopeks,
          },
        });
      } else if (outcome === 'paid') {
        await this.markPaid(tx, order, new Date(event.paidAt));
      }
      return { ok: true };
    });
  }

  private outcomeOf(order: LockedOrder, event: PaymentEventDto): string {
    if (event.status === 'failed') return 'failed';
    if (event.amountKopeks !== Number(order.total_kopeks)) return 'amount_mismatch';
    return order.payment_status === 'paid' ? 'already_paid' : 'paid';
  }

  private async markPaid(tx: EntityManager, order: LockedOrder, paidAt: Date): Promise<void> {
    let shortage = false;
    // Under the order's row lock: the stock leaves exactly once, whatever else arrives.
    if (order.stock_deducted_at === null) {
      const lines: Array<{ size_id: number; quantity: number }> = await tx.query(
        'SELECT size_id, quantity FROM order_items WHERE order_id = $1 ORDER BY line',
        [order.id],
      );
      const stock = await this.ledger.apply(
        tx,
        order.brand_id,
        lines.map((line) => ({ sizeId: line.size_id, delta: -line.quantity, reason: 'order' as const, orderId: order.id })),
        { kind: 'webhook', id: null },
      );
      shortage = [...stock.values()].some((level) => level < 0);
    }
    await tx.query(
      `UPDATE orders SET payment_status = 'paid', status = 'paid', paid_at = $2,
              stock_deducted_at = COALESCE(stock_deducted_at, now()), stock_shortage = stock_shortage OR $3
        WHERE id = $1`,
      [order.id, paidAt, shortage],
    );
    const jobs: OutboxEntry[] = [];
    // A storefront that registered the shipment itself sent its carrier id already.
    if (!order.carrier_order_uuid) {
      jobs.push({ kind: 'carrier.register_shipment', payload: { orderId: order.id }, dedupeKey: `register_shipment:${order.id}` });
    }
    jobs.push({ kind: 'mail.staff_paid_order', payload: { orderId: order.id }, dedupeKey: `staff_paid_order:${order.id}` });
    if (order.recipient_email) {
      jobs.push({ kind: 'mail.payment_received', payload: { orderId: order.id }, dedupeKey: `payment_received:${order.id}` });
    }
    await this.outbox.enqueue(tx, jobs);
  }
}
