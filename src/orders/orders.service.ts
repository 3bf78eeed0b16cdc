import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { RequestContext } from '../common/context/request-context';
import { BrandOwnership } from '../security-journal/brand-ownership';
import { OrderEntity } from './order.entity';
import { toOrderSummary, toOrderView } from './order-views';

@Injectable()
export class OrdersService {
  constructor(
    @InjectRepository(OrderEntity) private readonly orders: Repository<OrderEntity>,
    private readonly ownership: BrandOwnership,
  ) {}

  /** The brand's orders, newest first. */
  async list(ctx: RequestContext, page: { limit: number; offset: number }) {
    const [rows, total] = await this.orders.findAndCount({
      where: { brandId: ctx.brandId! },
      order: { id: 'DESC' },
      take: page.limit,
      skip: page.offset,
    });
    return { items: rows.map(toOrderSummary), total };
  }

  async get(ctx: RequestContext, orderId: number) {
    const order = await this.ownership.assertOwned(ctx, await this.orders.findOne({ where: { id: orderId } }), {
      resource: 'order',
      id: orderId,
    });
    // Order lines arrive with the catalog (storefront webhook); until then an order has none.
    return toOrderView(order, []);
  }
}
