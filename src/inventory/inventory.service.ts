import { Injectable } from '@nestjs/common';
import { CatalogMatcher } from '../catalog/catalog-matcher';
import { CatalogService } from '../catalog/catalog.service';
import type { BrandContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { Transactions } from '../database/transactions';
import { AcceptancesRepository } from './acceptances.repository';
import type { AcceptanceItemDto } from './dto/acceptance.dto';
import type { AdjustmentDto } from './dto/adjustment.dto';
import { StockLedger } from '../stock-ledger/stock-ledger';
import { actorOf } from '../common/context/actor';

@Injectable()
export class InventoryService {
  constructor(
    private readonly transactions: Transactions,
    private readonly acceptances: AcceptancesRepository,
    private readonly ledger: StockLedger,
    private readonly matcher: CatalogMatcher,
    private readonly catalog: CatalogService,
  ) {}

  async stock(ctx: BrandContext) {
    const rows = await this.catalog.stockLevels(ctx.brandId);
    return {
      items: rows.map((r) => ({
        productId: r.product_id,
        sizeId: r.size_id,
        article: r.article,
        storefrontArticle: r.storefront_article,
        size: r.size,
        stock: r.stock,
      })),
    };
  }

  async adjust(ctx: BrandContext, input: AdjustmentDto) {
    const { sizes, missing } = await this.matcher.byIds(ctx, [input.sizeId]);
    if (missing.length > 0) throw AppError.notFound();
    const size = sizes.get(input.sizeId)!;
    const stock = await this.transactions.run((tx) =>
      this.ledger.apply(
        tx,
        ctx.brandId,
        [{ sizeId: size.sizeId, delta: input.delta, reason: 'adjustment', note: input.reason }],
        actorOf(ctx),
      ),
    );
    return {
      sizeId: size.sizeId,
      productId: size.productId,
      delta: input.delta,
      reason: input.reason,
      stock: stock.get(size.sizeId)!,
    };
  }

  async movements(ctx: BrandContext, query: { sizeId?: number; limit: number }) {
    // A filter addresses a record as a path does: another brand's size is a 403, not an empty list.
    if (query.sizeId !== undefined && (await this.matcher.byIds(ctx, [query.sizeId])).missing.length > 0)
      throw AppError.notFound();
    const rows = await this.ledger.movements(ctx.brandId, query.sizeId, query.limit);
    return {
      items: rows.map((r) => ({
        id: Number(r.id),
        sizeId: r.size_id,
        delta: r.delta,
        reason: r.reason,
        orderId: r.order_id,
        acceptanceId: r.acceptance_id,
        note: r.note,
        actor: r.actor_kind ? { kind: r.actor_kind, id: r.actor_id } : null,
        at: r.created_at.toISOString(),
      })),
    };
  }

  /** Finished goods from a production site (the calling site key's): all lines or none. */
  async accept(ctx: BrandContext, siteId: number, items: AcceptanceItemDto[]) {
    const brandId = ctx.brandId;
    const { lines, problems } = await this.matcher.byArticle(brandId, items);
    if (problems.length > 0) throw AppError.unprocessable(problems[0], problems);
    return this.transactions.run(async (tx) => {
      const acceptance = await this.acceptances.insert(tx, brandId, siteId);
      const acceptanceId = acceptance.id;
      const stock = await this.ledger.apply(
        tx,
        brandId,
        items.map((item, i) => ({
          sizeId: lines[i]!.sizeId,
          delta: item.quantity,
          reason: 'acceptance' as const,
          acceptanceId,
        })),
        actorOf(ctx),
      );
      return {
        id: acceptanceId,
        siteId: siteId,
        createdAt: acceptance.createdAt.toISOString(),
        items: items.map((item, i) => ({
          productId: lines[i]!.productId,
          sizeId: lines[i]!.sizeId,
          article: lines[i]!.article,
          size: lines[i]!.size,
          quantity: item.quantity,
          stock: stock.get(lines[i]!.sizeId)!,
        })),
      };
    });
  }

  /** What the production sites should make: every size below zero, with the quantity short. */
  async queue(brandId: number) {
    const rows = await this.catalog.stockLevels(brandId, true);
    return {
      items: rows.map((r) => ({
        productId: r.product_id,
        sizeId: r.size_id,
        article: r.article,
        name: r.name,
        size: r.size,
        stock: r.stock,
        quantityShort: -r.stock,
      })),
    };
  }
}
