import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import type { Tx } from '../database/transactions';
import type { CarrierStatus } from './carrier-status';
import { StockLedger, type LedgerActor } from '../stock-ledger/stock-ledger';
import { Outbox, type OutboxEntry } from '../outbox/outbox';
import type { OrderStatus } from './order.entity';
import { canMove, statusAfterCarrier } from './order-transitions';
import { OrdersRepository, type LineRow } from './orders.repository';

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

/** An order locked for a cancellation or a return, with its lines. */
export interface LockedOrder {
  id: number;
  brandId: number;
  orderNumber: string;
  status: OrderStatus;
  stockDeducted: boolean;
  registeringWithCarrier: boolean;
  lines: OrderLine[];
}

export interface OrderLine {
  id: number;
  productId: number;
  sizeId: number;
  article: string;
  size: string;
  quantity: number;
  returnedQuantity: number;
  priceKopeks: number;
}

const toLine = (row: LineRow): OrderLine => ({
  id: row.id,
  productId: row.product_id,
  sizeId: row.size_id,
  article: row.article,
  size: row.size,
  quantity: row.quantity,
  returnedQuantity: row.returned_quantity,
  priceKopeks: Number(row.price_kopeks),
});

/** The event each status an order moves to is reported as (contract §10). */
const EVENT_OF: Partial<Record<OrderStatus, string>> = {
  paid: 'order.paid',
  shipped: 'order.shipped',
  completed: 'order.completed',
  returned: 'order.returned',
  cancelled: 'order.cancelled',
};

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
    if (status !== order.status) await this.orders.appendEvent(tx, order.id, EVENT_OF.paid!);
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
    const status = statusAfterCarrier(order.status, event.status);
    await this.orders.setDelivery(tx, order.id, {
      deliveryStatus: event.status,
      at: event.occurredAt,
      status,
      trackingNumber: event.trackingNumber ?? null,
    });
    if (event.status !== order.deliveryStatus) {
      await this.orders.appendEvent(tx, order.id, 'order.delivery_status_changed');
    }
    if (status !== order.status) await this.orders.appendEvent(tx, order.id, EVENT_OF[status]!);
  }

  /** The carrier registered the shipment: its ids, once (a repeated answer changes nothing). */
  async recordShipment(tx: Tx, orderId: number, shipment: { uuid: string; trackingNumber: string }): Promise<void> {
    await this.orders.setShipment(tx, orderId, shipment);
  }

  /** Registration gave up after the retry window: flagged for staff. */
  async flagShipmentFailed(tx: Tx, orderId: number): Promise<void> {
    await this.orders.setShipmentFailed(tx, orderId);
  }

  /**
   * The order's buyer data was anonymised in this transaction (the caller locked the row): the
   * order keeps its state and says so, `personalDataErasedAt` and an `order.personal_data_erased` event.
   */
  async markPersonalDataErased(tx: Tx, orderId: number): Promise<void> {
    await this.orders.setPersonalDataErased(tx, orderId);
    await this.orders.appendEvent(tx, orderId, 'order.personal_data_erased');
  }

  async lockById(tx: Tx, orderId: number): Promise<LockedOrder | null> {
    const row = await this.orders.lockById(tx, orderId);
    if (!row) return null;
    return {
      id: row.id,
      brandId: row.brand_id,
      orderNumber: row.order_number,
      status: row.status,
      stockDeducted: row.stock_deducted_at !== null,
      registeringWithCarrier: row.carrier_order_uuid !== null || row.carrier_registration_started_at !== null,
      lines: (await this.orders.lines(row.id, tx)).map(toLine),
    };
  }

  /**
   * Cancels a `new` or `paid` order that the carrier has not got (nor is getting): the stock it
   * took comes back through the ledger, one row a line. Its queued shipment job then finds it
   * cancelled and does nothing.
   */
  async cancel(tx: Tx, order: LockedOrder, reason: string | null, actor: LedgerActor): Promise<void> {
    this.moved(order.status, 'cancelled');
    if (order.registeringWithCarrier) throw AppError.conflict(ErrorText.orderRegisteredWithCarrier);
    if (order.stockDeducted) {
      await this.ledger.apply(
        tx,
        order.brandId,
        order.lines.map((line) => ({
          sizeId: line.sizeId,
          delta: line.quantity,
          reason: 'cancellation' as const,
          orderId: order.id,
        })),
        actor,
      );
    }
    await this.orders.setCancelled(tx, order.id, reason);
    await this.orders.appendEvent(tx, order.id, EVENT_OF.cancelled!);
  }

  /** Units received back by a return; the order becomes `returned` once every unit is back. */
  async recordReturned(
    tx: Tx,
    order: LockedOrder,
    units: Array<{ orderItemId: number; quantity: number }>,
  ): Promise<void> {
    const allBack = await this.orders.addReturned(tx, order.id, units);
    if (allBack && order.status !== 'returned' && canMove(order.status, 'returned')) {
      await this.orders.setStatus(tx, order.id, 'returned');
      await this.orders.appendEvent(tx, order.id, EVENT_OF.returned!);
    }
  }

  /** Before the carrier is called: false when the order was cancelled or registered meanwhile. */
  beginShipment(tx: Tx, orderId: number): Promise<boolean> {
    return this.orders.beginShipment(tx, orderId);
  }

  /** The carrier call failed: the order may be cancelled again until the next attempt. */
  endShipmentAttempt(orderId: number): Promise<void> {
    return this.orders.endShipmentAttempt(orderId);
  }

  /** The target status, or a 409 when the table does not list the move. */
  private moved(from: OrderStatus, to: OrderStatus): OrderStatus {
    if (!canMove(from, to)) throw AppError.conflict(ErrorText.orderCannotMove(from, to));
    return to;
  }
}
