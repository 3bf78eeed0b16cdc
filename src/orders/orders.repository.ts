import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PreparedStatements } from '../database/prepared';
import { changedRows } from '../database/returning';
import type { Tx } from '../database/transactions';
import { DomainEvents } from '../domain-events/domain-events';
import type { EventPart } from '../domain-events/domain-events.sql';
import { IdentitySql } from '../identity/identity.sql';
import { OrderItemEntity } from './order-item.entity';
import { OrderEntity, type OrderStatus } from './order.entity';
import { orderEventData } from './order-event-data.sql';
import type { KeyCheckOutcome } from '../access-keys/verify-key.query';
import type { PendingKeyCheck } from '../access-keys/statement-key/pending-key-check';
import { SETTINGS_MANAGE } from '../common/context/permissions';
import { filteredList, LIST_ORDERS, LIST_ORDERS_WITH_KEY, type OrderListFilter } from './order-list.query';
import type { JsonText } from '../common/http/json-text';
import type { OrderListResponse } from './dto/order.responses';

export interface PayableOrderRow {
  id: number;
  brand_id: number;
  order_number: string;
  status: OrderStatus;
  total_kopeks: string;
  payment_status: string;
  stock_deducted_at: Date | null;
  carrier_order_uuid: string | null;
  recipient_email: string | null;
}

export interface ShippedOrderRow {
  id: number;
  status: OrderStatus;
  delivery_status: string | null;
  delivery_status_at: Date | null;
  recipient_email: string | null;
}

export interface ContactsRow {
  brand_name: string;
  staff_email: string | null;
  order_number: string;
  hash: string;
  recipient_full_name: string;
  recipient_first_name: string | null;
  recipient_email: string | null;
  total_kopeks: string;
  delivery_city: string;
  delivery_pvz_address: string | null;
  carrier_tracking_number: string | null;
}

export interface ShipmentRow {
  order_number: string;
  carrier_order_uuid: string | null;
  recipient_full_name: string;
  recipient_phone: string;
  recipient_email: string | null;
  delivery_city: string;
  delivery_city_code: number | null;
  delivery_pvz_code: string | null;
  delivery_pvz_address: string | null;
}

export interface LineRow {
  id: number;
  product_id: number;
  size_id: number;
  article: string;
  size: string;
  quantity: number;
  returned_quantity: number;
  price_kopeks: string;
  line_total_kopeks: string;
}

export interface LockedOrderRow extends PayableOrderRow {
  carrier_registration_started_at: Date | null;
}

/**
 * `updated_at` for an UPDATE of orders whose `changed` (over the row's old values) tells whether
 * its state moved: a repeated payment or carrier status leaves the time of the last change.
 */
const touched = (changed: string): string => `updated_at = CASE WHEN ${changed} THEN now() ELSE updated_at END`;

/** The event of a change to an order's state ($1 the order, $2 the type), from the order as the change left it. */
export const ORDER_EVENT: EventPart = {
  subject: 'order',
  brandId: 'o.brand_id',
  subjectId: 'o.id',
  type: '$2',
  data: orderEventData('o'),
  from: '(SELECT * FROM orders WHERE id = $1) AS o',
};

/**
 * The orders and order_items tables, but for the statements that write a new order (order-writer
 * and order-statements). The `tx` methods lock or change an order in the caller's transaction.
 */
@Injectable()
export class OrdersRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly statements: PreparedStatements,
    private readonly events: DomainEvents,
  ) {}

  /** A page of the brand's orders that the filter keeps, with their total, as the list's JSON answer. */
  async page(
    brandId: number,
    limit: number,
    offset: number,
    filter: OrderListFilter,
  ): Promise<JsonText<OrderListResponse>> {
    const filtered = filteredList(filter);
    const rows = await this.statements.read<{ body: string }>(filtered?.plain ?? LIST_ORDERS, [
      brandId,
      limit,
      offset,
      ...(filtered?.values ?? []),
    ]);
    return rows[0].body;
  }

  /** The same page with the key check in the statement (LIST_ORDERS_WITH_KEY); no body unless the key acted. */
  async pageWithKey(
    key: PendingKeyCheck,
    limit: number,
    offset: number,
    filter: OrderListFilter,
  ): Promise<{ key_check: KeyCheckOutcome; body: JsonText<OrderListResponse> | null }> {
    const filtered = filteredList(filter);
    const rows = await this.statements.read<{ key_check: KeyCheckOutcome; body: string | null }>(
      filtered?.withKey ?? LIST_ORDERS_WITH_KEY,
      [key.fingerprint, key.permission, SETTINGS_MANAGE, limit, offset, ...(filtered?.values ?? [])],
    );
    return rows[0];
  }

  byId(orderId: number): Promise<OrderEntity | null> {
    return this.db.getRepository(OrderEntity).findOne({ where: { id: orderId } });
  }

  items(orderId: number): Promise<OrderItemEntity[]> {
    return this.db.getRepository(OrderItemEntity).find({ where: { orderId }, order: { line: 'ASC' } });
  }

  /** The order's lines in line order; in the caller's transaction when `tx` is given. */
  lines(orderId: number, tx?: Tx): Promise<LineRow[]> {
    return (tx ?? this.db).query(
      `SELECT id, product_id, size_id, article, size, quantity, returned_quantity, price_kopeks, line_total_kopeks
         FROM order_items WHERE order_id = $1 ORDER BY line`,
      [orderId],
    );
  }

  async lockByNumber(tx: Tx, orderNumber: string): Promise<PayableOrderRow | null> {
    const rows: PayableOrderRow[] = await tx.query(
      `SELECT id, brand_id, order_number, status, total_kopeks, payment_status, stock_deducted_at, carrier_order_uuid, recipient_email
         FROM orders WHERE order_number = $1 FOR UPDATE`,
      [orderNumber],
    );
    return rows[0] ?? null;
  }

  async lockById(tx: Tx, orderId: number): Promise<LockedOrderRow | null> {
    const rows: LockedOrderRow[] = await tx.query(
      `SELECT id, brand_id, order_number, status, total_kopeks, payment_status, stock_deducted_at, carrier_order_uuid,
              carrier_registration_started_at, recipient_email
         FROM orders WHERE id = $1 FOR UPDATE`,
      [orderId],
    );
    return rows[0] ?? null;
  }

  async setCancelled(tx: Tx, orderId: number, reason: string | null): Promise<void> {
    await tx.query(
      `UPDATE orders SET status = 'cancelled', cancelled_at = now(), cancel_reason = $2, updated_at = now() WHERE id = $1`,
      [orderId, reason],
    );
  }

  async setStatus(tx: Tx, orderId: number, status: OrderStatus): Promise<void> {
    await tx.query(`UPDATE orders SET status = $2, ${touched('status IS DISTINCT FROM $2::varchar')} WHERE id = $1`, [
      orderId,
      status,
    ]);
  }

  /** Marks a registration under way unless the order is cancelled or registered; true when marked. */
  async beginShipment(tx: Tx, orderId: number): Promise<boolean> {
    const rows = await changedRows<{ id: number }>(
      tx,
      `UPDATE orders SET carrier_registration_started_at = now()
        WHERE id = $1 AND status <> 'cancelled' AND carrier_order_uuid IS NULL RETURNING id`,
      [orderId],
    );
    return rows.length > 0;
  }

  async endShipmentAttempt(orderId: number): Promise<void> {
    await this.db.query('UPDATE orders SET carrier_registration_started_at = NULL WHERE id = $1', [orderId]);
  }

  /** Adds units received back to the order's lines; true when every unit of the order is back. */
  async addReturned(tx: Tx, orderId: number, units: Array<{ orderItemId: number; quantity: number }>) {
    await tx.query(
      `UPDATE order_items i SET returned_quantity = i.returned_quantity + u.quantity
         FROM (SELECT id, sum(quantity)::int AS quantity FROM unnest($2::int[], $3::int[]) AS x(id, quantity) GROUP BY id) AS u
        WHERE i.id = u.id AND i.order_id = $1`,
      [orderId, units.map((u) => u.orderItemId), units.map((u) => u.quantity)],
    );
    const rows: Array<{ all_back: boolean }> = await tx.query(
      'SELECT bool_and(returned_quantity = quantity) AS all_back FROM order_items WHERE order_id = $1',
      [orderId],
    );
    return rows[0]?.all_back === true;
  }

  /** The buyer's data was anonymised (the personal-data map's columns emptied in the same transaction). */
  async setPersonalDataErased(tx: Tx, orderId: number): Promise<void> {
    await tx.query('UPDATE orders SET personal_data_erased_at = now() WHERE id = $1', [orderId]);
  }

  /** Appends an event of the order, with the state its row holds now (call after the change). */
  async appendEvent(tx: Tx, orderId: number, type: string): Promise<void> {
    await this.events.append(tx, ORDER_EVENT, [orderId, type]);
  }

  /** The order with this carrier id or tracking number (the first, should both name one), locked. */
  async lockByShipment(tx: Tx, carrierOrderUuid: string | null, trackingNumber: string | null) {
    const rows: ShippedOrderRow[] = await tx.query(
      `SELECT id, status, delivery_status, delivery_status_at, recipient_email FROM orders
          WHERE ($1::text IS NOT NULL AND carrier_order_uuid = $1) OR ($2::text IS NOT NULL AND carrier_tracking_number = $2)
          ORDER BY id LIMIT 1 FOR UPDATE`,
      [carrierOrderUuid, trackingNumber],
    );
    return rows[0] ?? null;
  }

  /** Paid, with its stock deducted (the first time only) and the shortage it left, if any. */
  async setPaid(tx: Tx, orderId: number, change: { status: OrderStatus; paidAt: Date; shortage: boolean }) {
    await tx.query(
      `UPDATE orders SET payment_status = 'paid', status = $4, paid_at = $2,
              stock_deducted_at = COALESCE(stock_deducted_at, now()), stock_shortage = stock_shortage OR $3,
              ${touched(`payment_status IS DISTINCT FROM 'paid' OR status IS DISTINCT FROM $4::varchar`)}
        WHERE id = $1`,
      [orderId, change.paidAt, change.shortage, change.status],
    );
  }

  /** The newest carrier status and the order status it leads to; the tracking number if none was known. */
  async setDelivery(
    tx: Tx,
    orderId: number,
    change: { deliveryStatus: string; at: Date; status: OrderStatus; trackingNumber: string | null },
  ): Promise<void> {
    await tx.query(
      `UPDATE orders SET delivery_status = $2, delivery_status_at = $3, status = $4,
              carrier_tracking_number = COALESCE(carrier_tracking_number, $5),
              ${touched('delivery_status IS DISTINCT FROM $2::varchar OR status IS DISTINCT FROM $4::varchar')}
        WHERE id = $1`,
      [orderId, change.deliveryStatus, change.at, change.status, change.trackingNumber],
    );
  }

  /** The carrier's ids, unless the order has a shipment already. */
  async setShipment(tx: Tx, orderId: number, shipment: { uuid: string; trackingNumber: string }): Promise<void> {
    await tx.query(
      `UPDATE orders SET carrier_order_uuid = $2, carrier_tracking_number = $3, carrier_registration_failed_at = NULL
        WHERE id = $1 AND carrier_order_uuid IS NULL`,
      [orderId, shipment.uuid, shipment.trackingNumber],
    );
  }

  async setShipmentFailed(tx: Tx, orderId: number): Promise<void> {
    await tx.query('UPDATE orders SET carrier_registration_failed_at = now() WHERE id = $1', [orderId]);
  }

  /** What the order's mails say, with the brand's name and staff address. */
  async contacts(orderId: number): Promise<ContactsRow | null> {
    const rows: ContactsRow[] = await this.db.query(
      `SELECT ${IdentitySql.brandField('o.brand_id', 'name')} AS brand_name,
              ${IdentitySql.brandField('o.brand_id', 'staff_email')} AS staff_email,
              o.order_number, o.hash, o.recipient_full_name, o.recipient_first_name,
              o.recipient_email, o.total_kopeks, o.delivery_city, o.delivery_pvz_address, o.carrier_tracking_number
         FROM orders o WHERE o.id = $1`,
      [orderId],
    );
    return rows[0] ?? null;
  }

  async shipment(orderId: number): Promise<ShipmentRow | null> {
    const rows: ShipmentRow[] = await this.db.query(
      `SELECT order_number, carrier_order_uuid, recipient_full_name, recipient_phone, recipient_email,
              delivery_city, delivery_city_code, delivery_pvz_code, delivery_pvz_address
         FROM orders WHERE id = $1`,
      [orderId],
    );
    return rows[0] ?? null;
  }
}
