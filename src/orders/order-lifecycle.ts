import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import type { Tx } from '../database/transactions';
import type { CarrierStatus } from './carrier-status';
import { StockLedger } from '../stock-ledger/stock-ledger';
import { Outbox, type OutboxEntry } from '../outbox/outbox';
import type { OrderStatus } from './order.entity';
import { canMove, statusAfterCarrier } from './order-transitions';
import { OrdersRepository } from './orders.repository';

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
    private readonly orders: OrdersRepository,
    private readonly ledger: StockLedger,
    private readonly outbox: Outbox,
  ) {}

  async lockByNumber(tx: Tx, orderNumber: string): Promise<PayableOrder | null> {
    const row = await this.orders.lockByNumber(tx, orderNumber);
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
  async markPaid(tx: Tx, order: PayableOrder, paidAt: Date): Promise<void> {
    const status = order.status === 'paid' ? 'paid' : this.moved(order.status, 'paid');
    let shortage = false;
    if (!order.stockDeducted) {
      const lines = await this.orders.lines(order.id, tx);
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
    await this.orders.setPaid(tx, order.id, { status, paidAt, shortage });
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
    tx: Tx,
    shipment: { carrierOrderUuid?: string; trackingNumber?: string },
  ): Promise<ShippedOrder | null> {
    const row = await this.orders.lockByShipment(
      tx,
      shipment.carrierOrderUuid ?? null,
      shipment.trackingNumber ?? null,
    );
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
    tx: Tx,
    order: ShippedOrder,
    event: { status: CarrierStatus; occurredAt: Date; trackingNumber?: string },
  ): Promise<void> {
    await this.orders.setDelivery(tx, order.id, {
      deliveryStatus: event.status,
      at: event.occurredAt,
      status: statusAfterCarrier(order.status, event.status),
      trackingNumber: event.trackingNumber ?? null,
    });
  }

  /** The carrier registered the shipment: its ids, once (a repeated answer changes nothing). */
  async recordShipment(tx: Tx, orderId: number, shipment: { uuid: string; trackingNumber: string }): Promise<void> {
    await this.orders.setShipment(tx, orderId, shipment);
  }

  /** Registration gave up after the retry window: flagged for staff. */
  async flagShipmentFailed(tx: Tx, orderId: number): Promise<void> {
    await this.orders.setShipmentFailed(tx, orderId);
  }

  /** The target status, or a 409 when the table does not list the move. */
  private moved(from: OrderStatus, to: OrderStatus): OrderStatus {
    if (!canMove(from, to)) throw AppError.conflict(ErrorText.orderCannotMove(from, to));
    return to;
  }
}
