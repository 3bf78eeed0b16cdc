import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CatalogMatcher } from '../catalog/catalog-matcher';
import type { BrandContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import type { AcceptanceItemDto } from './dto/acceptance.dto';
import type { AdjustmentDto } from './dto/adjustment.dto';
import { StockLedger } from '../stock-ledger/stock-ledger';

const actorOf = (ctx: BrandContext) => ({ kind: ctx.principal?.kind ?? null, id: ctx.principal?.id ?? null });

@Injectable()
export class InventoryService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly ledger: StockLedger,
    private readonly matcher: CatalogMatcher,
  ) {}

  async stock(ctx: BrandContext) {
    const rows: Array<{
      product_id: number;
      size_id: number;
      article: string;
      storefront_article: string | null;
      size: string;
      stock: number;
    }> = await this.db.query(
      `SELECT s.product_id, s.id AS size_id, p.article, p.storefront_article, s.name AS size, s.stock
           FROM product_sizes s JOIN products p ON p.id = s.product_id
          WHERE s.brand_id = $1 ORDER BY p.id, s.id`,
      [ctx.brandId],
    );
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
    const stock = await this.db.transaction((tx) =>
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
    const rows: Array<{
      id: string;
      size_id: number;
      delta: number;
      reason: string;
      order_id: number | null;
      acceptance_id: number | null;
      note: string | null;
      actor_kind: string | null;
      actor_id: number | null;
      created_at: Date;
    }> = await this.db.query(
      `SELECT id, size_id, delta, reason, order_id, acceptance_id, note, actor_kind, actor_id, created_at
         FROM stock_movements WHERE brand_id = $1 AND ($2::int IS NULL OR size_id = $2)
        ORDER BY id DESC LIMIT $3`,
      [ctx.brandId, query.sizeId ?? null, query.limit],
    );
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
    return this.db.transaction(async (tx) => {
      const inserted: Array<{ id: number; created_at: Date }> = await tx.query(
        'INSERT INTO acceptances (brand_id, site_id) VALUES ($1, $2) RETURNING id, created_at',
        [brandId, siteId],
      );
      const acceptanceId = inserted[0].id;
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
        createdAt: inserted[0].created_at.toISOString(),
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
    const rows: Array<{
      product_id: number;
      size_id: number;
      article: string;
      name: string;
      size: string;
      stock: number;
    }> = await this.db.query(
      `SELECT s.product_id, s.id AS size_id, p.article, p.name, s.name AS size, s.stock
         FROM product_sizes s JOIN products p ON p.id = s.product_id
        WHERE s.brand_id = $1 AND s.stock < 0 ORDER BY s.stock, s.id`,
      [brandId],
    );
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
