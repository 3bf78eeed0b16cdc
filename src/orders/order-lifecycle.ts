import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import type { CarrierStatus } from './carrier-status';
import { StockLedger } from '../stock-ledger/stock-ledger';
import { Outbox, type OutboxEntry } from '../outbox/outbox';
import type { OrderStatus } from './order.entity';
import { canMove, statusAfterCarrier } from './order-transitions';

/** An order locked for a payment event, with what the event is checked against. */
export interface PayableOrder {
  id: number;
  brandId: number;
  orderNumber: string;
  status: OrderStatus;
  totalKopeks: number;
  paid: boolean;
  stockDeducted: boolean;
  registeredWithCarrier: boolean;
  recipientEmail: string | null;
}

/** An order locked for a carrier event, with the last carrier status applied to it. */
export interface ShippedOrder {
  id: number;
  status: OrderStatus;
  deliveryStatus: string | null;
  deliveryStatusAt: Date | null;
  recipientEmail: string | null;
}

/**
 * The one writer of an order's state after it was taken: status, payment, delivery, carrier
 * columns and the stock-deducted mark. Every method runs in the caller's transaction, on a row
 * the caller locked through it, and every status move is checked against ORDER_TRANSITIONS.
 * (The storefront order's single statement and the platform order's insert set the first state.)
 */
@Injectable()
export class OrderLifecycle {
  constructor(
    private readonly ledger: StockLedger,
    private readonly outbox: Outbox,
  ) {}

  async lockByNumber(tx: EntityManager, orderNumber: string): Promise<PayableOrder | null> {
    const rows: Array<{
      id: number;
      brand_id: number;
      order_number: string;
      status: OrderStatus;
      total_kopeks: string;
      payment_status: string;
      stock_deducted_at: Date | null;
      carrier_order_uuid: string | null;
      recipient_email: string | null;
    }> = await tx.query(
      `SELECT id, brand_id, order_number, status, total_kopeks, payment_status, stock_deducted_at, carrier_order_uuid, recipient_email
         FROM orders WHERE order_number = $1 FOR UPDATE`,
      [orderNumber],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      brandId: row.brand_id,
      orderNumber: row.order_number,
      status: row.status,
      totalKopeks: Number(row.total_kopeks),
      paid: row.payment_status === 'paid',
      stockDeducted: row.stock_deducted_at !== null,
      registeredWithCarrier: row.carrier_order_uuid !== null,
      recipientEmail: row.recipient_email,
    };
  }

  /**
   * Payment received: stock leaves once (under the row lock, whatever else arrives), the order is
   * paid, and its follow-ups are queued: the shipment (unless the storefront registered it), the
   * staff mail, the buyer's mail.
   */
  async markPaid(tx: EntityManager, order: PayableOrder, paidAt: Date): Promise<void> {
    const status = order.status === 'paid' ? 'paid' : this.moved(order.status, 'paid');
    let shortage = false;
    if (!order.stockDeducted) {
      const lines: Array<{ size_id: number; quantity: number }> = await tx.query(
        'SELECT size_id, quantity FROM order_items WHERE order_id = $1 ORDER BY line',
        [order.id],
      );
      const stock = await this.ledger.apply(
        tx,
        order.brandId,
        lines.map((line) => ({
          sizeId: line.size_id,
          delta: -line.quantity,
          reason: 'order' as const,
          orderId: order.id,
        })),
        { kind: 'webhook', id: null },
      );
      shortage = [...stock.values()].some((level) => level < 0);
    }
    await tx.query(
      `UPDATE orders SET payment_status = 'paid', status = $4, paid_at = $2,
              stock_deducted_at = COALESCE(stock_deducted_at, now()), stock_shortage = stock_shortage OR $3
        WHERE id = $1`,
      [order.id, paidAt, shortage, status],
    );
    const jobs: OutboxEntry[] = [];
    // A storefront that registered the shipment itself sent its carrier id already.
    if (!order.registeredWithCarrier) {
      jobs.push({
        kind: 'carrier.register_shipment',
        payload: { orderId: order.id },
        dedupeKey: `register_shipment:${order.id}`,
      });
    }
    jobs.push({
      kind: 'mail.staff_paid_order',
      payload: { orderId: order.id },
      dedupeKey: `staff_paid_order:${order.id}`,
    });
    if (order.recipientEmail) {
      jobs.push({
        kind: 'mail.payment_received',
        payload: { orderId: order.id },
        dedupeKey: `payment_received:${order.id}`,
      });
    }
    await this.outbox.enqueue(tx, jobs);
  }

  async lockByShipment(
    tx: EntityManager,
    shipment: { carrierOrderUuid?: string; trackingNumber?: string },
  ): Promise<ShippedOrder | null> {
    const rows: Array<{
      id: number;
      status: OrderStatus;
      delivery_status: string | null;
      delivery_status_at: Date | null;
      recipient_email: string | null;
    }> = await tx.query(
      `SELECT id, status, delivery_status, delivery_status_at, recipient_email FROM orders
          WHERE ($1::text IS NOT NULL AND carrier_order_uuid = $1) OR ($2::text IS NOT NULL AND carrier_tracking_number = $2)
          ORDER BY id LIMIT 1 FOR UPDATE`,
      [shipment.carrierOrderUuid ?? null, shipment.trackingNumber ?? null],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      status: row.status,
      deliveryStatus: row.delivery_status,
      deliveryStatusAt: row.delivery_status_at,
      recipientEmail: row.recipient_email,
    };
  }

  /** A carrier status, the newest so far: kept as the delivery status, and the order moved as the table allows. */
  async applyCarrierStatus(
    tx: EntityManager,
    order: ShippedOrder,
    event: { status: CarrierStatus; occurredAt: Date; trackingNumber?: string },
  ): Promise<void> {
    await tx.query(
      `UPDATE orders SET delivery_status = $2, delivery_status_at = $3, status = $4,
              carrier_tracking_number = COALESCE(carrier_tracking_number, $5)
        WHERE id = $1`,
      [
        order.id,
        event.status,
        event.occurredAt,
        statusAfterCarrier(order.status, event.status),
        event.trackingNumber ?? null,
      ],
    );
  }

  /** The carrier registered the shipment: its ids, once (a repeated answer changes nothing). */
  async recordShipment(
    tx: EntityManager,
    orderId: number,
    shipment: { uuid: string; trackingNumber: string },
  ): Promise<void> {
    await tx.query(
      `UPDATE orders SET carrier_order_uuid = $2, carrier_tracking_number = $3, carrier_registration_failed_at = NULL
        WHERE id = $1 AND carrier_order_uuid IS NULL`,
      [orderId, shipment.uuid, shipment.trackingNumber],
    );
  }

  /** Registration gave up after the retry window: flagged for staff. */
  async flagShipmentFailed(tx: EntityManager, orderId: number): Promise<void> {
    await tx.query('UPDATE orders SET carrier_registration_failed_at = now() WHERE id = $1', [orderId]);
  }

  /** The target status, or a 409 when the table does not list the move. */
  private moved(from: OrderStatus, to: OrderStatus): OrderStatus {
    if (!canMove(from, to)) throw AppError.conflict(ErrorText.orderCannotMove(from, to));
    return to;
  }
}
