import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OrderMailData, ShipmentRequest } from './follow-up-data';

export interface OrderContacts {
  mail: OrderMailData;
  recipientEmail: string | null;
  staffEmail: string | null;
}

/** What the follow-up jobs of an order read: its mail data, its shipment request. Writes go through OrderLifecycle. */
@Injectable()
export class OrderFulfilment {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async contacts(orderId: number): Promise<OrderContacts | null> {
    const rows: Array<{
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
    }> = await this.db.query(
      `SELECT b.name AS brand_name, b.staff_email, o.order_number, o.hash, o.recipient_full_name, o.recipient_first_name,
              o.recipient_email, o.total_kopeks, o.delivery_city, o.delivery_pvz_address, o.carrier_tracking_number
         FROM orders o JOIN brands b ON b.id = o.brand_id WHERE o.id = $1`,
      [orderId],
    );
    const row = rows[0];
    if (!row) return null;
    const items: Array<{ article: string; size: string; quantity: number; line_total_kopeks: string }> =
      await this.db.query(
        'SELECT article, size, quantity, line_total_kopeks FROM order_items WHERE order_id = $1 ORDER BY line',
        [orderId],
      );
    return {
      recipientEmail: row.recipient_email,
      staffEmail: row.staff_email,
      mail: {
        brandName: row.brand_name,
        orderNumber: row.order_number,
        hash: row.hash,
        recipientName: row.recipient_first_name ?? row.recipient_full_name,
        totalKopeks: Number(row.total_kopeks),
        items: items.map((i) => ({
          article: i.article,
          size: i.size,
          quantity: i.quantity,
          lineTotalKopeks: Number(i.line_total_kopeks),
        })),
        deliveryCity: row.delivery_city,
        pvzAddress: row.delivery_pvz_address,
        trackingNumber: row.carrier_tracking_number,
      },
    };
  }

  /** The carrier request for an order, or null when it already has a shipment. */
  async shipmentRequest(orderId: number): Promise<ShipmentRequest | null> {
    const rows: Array<{
      order_number: string;
      carrier_order_uuid: string | null;
      recipient_full_name: string;
      recipient_phone: string;
      recipient_email: string | null;
      delivery_city: string;
      delivery_city_code: number | null;
      delivery_pvz_code: string | null;
      delivery_pvz_address: string | null;
    }> = await this.db.query(
      `SELECT order_number, carrier_order_uuid, recipient_full_name, recipient_phone, recipient_email,
              delivery_city, delivery_city_code, delivery_pvz_code, delivery_pvz_address
         FROM orders WHERE id = $1`,
      [orderId],
    );
    const order = rows[0];
    if (!order || order.carrier_order_uuid) return null;
    const items: Array<{ article: string; size: string; quantity: number }> = await this.db.query(
      'SELECT article, size, quantity FROM order_items WHERE order_id = $1 ORDER BY line',
      [orderId],
    );
    const delivery: ShipmentRequest['delivery'] = { city: order.delivery_city };
    if (order.delivery_city_code !== null) delivery.cityCode = order.delivery_city_code;
    if (order.delivery_pvz_code !== null) delivery.pvzCode = order.delivery_pvz_code;
    if (order.delivery_pvz_address !== null) delivery.pvzAddress = order.delivery_pvz_address;
    return {
      orderNumber: order.order_number,
      recipient: {
        fullName: order.recipient_full_name,
        phone: order.recipient_phone,
        ...(order.recipient_email ? { email: order.recipient_email } : {}),
      },
      delivery,
      items,
    };
  }
}
