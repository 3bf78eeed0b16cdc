import { Injectable } from '@nestjs/common';
import { KeyChecks } from '../../access-keys/key-checks';
import { CatalogMatcher } from '../../catalog/catalog-matcher';
import type { BrandContext } from '../../common/context/request-context';
import { AppError } from '../../common/errors/app-error';
import { ErrorText } from '../../common/errors/error-texts';
import { Transactions } from '../../database/transactions';
import { BrandOwnership } from '../../security-journal/brand-ownership';
import type { JsonText } from '../../common/http/json-text';
import type { OrderListResponse } from '../dto/order.responses';
import type { PlatformOrderDto } from '../dto/platform-order.dto';
import type { OrderEntity } from '../order.entity';
import type { OrderListFilter } from '../order-list.query';
import { toOrderView } from './order-views';
import { OrderLifecycle } from '../order-lifecycle';
import { OrdersRepository } from '../orders.repository';
import { OrderWriter } from '../order-writer';
import { actorOf } from '../../common/context/actor';

@Injectable()
export class OrdersService {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly transactions: Transactions,
    private readonly ownership: BrandOwnership,
    private readonly matcher: CatalogMatcher,
    private readonly writer: OrderWriter,
    private readonly lifecycle: OrderLifecycle,
    private readonly keys: KeyChecks,
  ) {}

  /**
   * The brand's orders that the filters keep, newest first, with their total, as JSON text (the
   * key-check hot path, filtered or not: one round trip).
   */
  async list(
    ctx: BrandContext,
    page: { limit: number; offset: number } & OrderListFilter,
  ): Promise<JsonText<OrderListResponse>> {
    const filter: OrderListFilter = {
      status: page.status,
      partnerOrderId: page.partnerOrderId,
      updatedSince: page.updatedSince,
      before: page.before,
    };
    const pending = this.keys.pendingOf(ctx);
    if (pending) {
      const { key_check, body } = await this.orders.pageWithKey(pending, page.limit, page.offset, filter);
      if ((await this.keys.settle(ctx, key_check)).acted && body !== null) return body;
    }
    return this.orders.page(ctx.brandId, page.limit, page.offset, filter);
  }

  async get(ctx: BrandContext, orderId: number) {
    const order = await this.orders.byId(orderId);
    return this.fullView(await this.ownership.assertOwned(ctx, order, { resource: 'order', id: orderId }));
  }

  /** An order taken by the platform: new and unpaid; its stock is deducted when payment arrives. */
  async createPlatformOrder(ctx: BrandContext, input: PlatformOrderDto) {
    const { sizes, missing } = await this.matcher.byIds(
      ctx,
      input.items.map((item) => item.sizeId),
    );
    if (missing.length > 0) {
      const problems = input.items.flatMap((item, i) =>
        missing.includes(item.sizeId) ? [ErrorText.lineSizeMissing(i, item.sizeId)] : [],
      );
      throw AppError.unprocessable(problems[0], problems);
    }
    const ref = await this.transactions.run(async (tx) => {
      const created = await this.writer.insert(tx, {
        brandId: ctx.brandId,
        source: 'platform',
        partnerOrderId: null,
        status: 'new',
        paymentStatus: 'pending',
        orderedAt: new Date(),
        recipient: input.recipient,
        delivery: input.delivery,
        comment: input.comment,
        lines: input.items.map((item) => {
          const size = sizes.get(item.sizeId)!;
          return { ...size, quantity: item.quantity, priceKopeks: item.priceKopeks ?? size.catalogPriceKopeks };
        }),
      });
      await this.orders.appendEvent(tx, created!.id, 'order.created');
      return created;
    });
    return { order: await this.fullView((await this.orders.byId(ref!.id))!) };
  }

  /** Contract §9: a `new` or `paid` order the carrier has not got; its stock comes back. */
  async cancel(ctx: BrandContext, orderId: number, reason: string | null) {
    const found = await this.orders.byId(orderId);
    await this.ownership.assertOwned(ctx, found, { resource: 'order', id: orderId });
    await this.transactions.run(async (tx) => {
      const order = await this.lifecycle.lockById(tx, orderId);
      if (!order) throw AppError.notFound();
      await this.lifecycle.cancel(tx, order, reason, actorOf(ctx));
    });
    return this.fullView((await this.orders.byId(orderId))!);
  }

  /** The full answers of these orders (contract §6), in the order given; for the personal-data export. */
  async views(orderIds: number[]) {
    const views = [];
    for (const id of orderIds) {
      const order = await this.orders.byId(id);
      if (order) views.push(await this.fullView(order));
    }
    return views;
  }

  private async fullView(order: OrderEntity) {
    const items = await this.orders.items(order.id);
    return toOrderView(
      order,
      items.map((item) => ({
        id: item.id,
        productId: item.productId,
        sizeId: item.sizeId,
        article: item.article,
        storefrontArticle: item.storefrontArticle,
        size: item.size,
        quantity: item.quantity,
        priceKopeks: item.priceKopeks,
        lineTotalKopeks: item.lineTotalKopeks,
        returnedQuantity: item.returnedQuantity,
      })),
    );
  }
}
