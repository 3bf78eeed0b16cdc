import { Injectable } from '@nestjs/common';
import type { EarlierOrder } from '../order-writer';
import { BoundedMap } from '../../common/runtime/bounded-map';

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
  private readonly orders = new BoundedMap<string, EarlierOrder>(CAPACITY);

  find(brandId: number, partnerOrderId: string): EarlierOrder | undefined {
    return this.orders.get(`${brandId}:${partnerOrderId}`);
  }

  remember(brandId: number, partnerOrderId: string, order: EarlierOrder): void {
    const key = `${brandId}:${partnerOrderId}`;
    if (this.orders.has(key)) return;
    this.orders.set(key, order);
  }
}
