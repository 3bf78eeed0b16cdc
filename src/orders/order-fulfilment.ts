import { Injectable } from '@nestjs/common';
import type { OrderMailData, ShipmentRequest } from './follow-up-data';
import { OrdersRepository } from './orders.repository';

export interface OrderContacts {
  mail: OrderMailData;
  recipientEmail: string | null;
  staffEmail: string | null;
}

/** What the follow-up jobs of an order read: its mail data, its shipment request. Writes go through OrderLifecycle. */
@Injectable()
export class OrderFulfilment {
  constructor(private readonly orders: OrdersRepository) {}

  async contacts(orderId: number): Promise<OrderContacts | null> {
    const row = await this.orders.contacts(orderId);
    if (!row) return null;
    const items = await this.orders.lines(orderId);
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
    const order = await this.orders.shipment(orderId);
    if (!order || order.carrier_order_uuid) return null;
    const items = (await this.orders.lines(orderId)).map(({ article, size, quantity }) => ({
      article,
      size,
      quantity,
    }));
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
