import { Injectable } from '@nestjs/common';
import type { EarlierOrder } from './order-writer';

const CAPACITY = 10_000;

/**
 * The orders this instance has lately written or answered for, by brand and partnerOrderId, so a
 * storefront's retry is answered without the matching and the write. Safe to keep in memory:
 * what it holds never changes (an order keeps its id, number, hash, total and the fingerprint of
 * the request that created it, and is never deleted), and it is filled only after the commit. A
 * miss, as on another instance, goes to the database, where the unique key decides.
 */
@Injectable()
export class RecentOrders {
  private readonly orders = new Map<string, EarlierOrder>();

  find(brandId: number, partnerOrderId: string): EarlierOrder | undefined {
    return this.orders.get(`${brandId}:${partnerOrderId}`);
  }

  remember(brandId: number, partnerOrderId: string, order: EarlierOrder): void {
    const key = `${brandId}:${partnerOrderId}`;
    if (this.orders.has(key)) return;
    // The oldest goes first: a Map iterates in insertion order.
    if (this.orders.size >= CAPACITY) this.orders.delete(this.orders.keys().next().value!);
    this.orders.set(key, order);
  }
}
