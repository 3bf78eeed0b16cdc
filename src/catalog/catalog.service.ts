import { Injectable } from '@nestjs/common';
import type { BrandContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { translateCatalogClashes } from './catalog-clashes';
import { Transactions, type Tx } from '../database/transactions';
import { StockLedger } from '../stock-ledger/stock-ledger';
import { BrandOwnership } from '../security-journal/brand-ownership';
import type { CreateProductDto } from './dto/create-product.dto';
import type { SizeDto } from './dto/size.dto';
import type { UpdateProductDto } from './dto/update-product.dto';
import { CatalogRepository, type ProductChange, type StockLevelRow } from './catalog.repository';
import { sizeKeyOf } from './catalog-matcher';
import type { ProductEntity } from './product.entity';
import { actorOf } from '../common/context/actor';

export interface SizeView {
  id: number;
  name: string;
  priceKopeks: number | null;
  stock: number;
}

export interface ProductView {
  id: number;
  name: string;
  article: string;
  storefrontArticle: string | null;
  priceKopeks: number;
  attributes: Record<string, unknown>;
  sizes: SizeView[];
}

@Injectable()
export class CatalogService {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly transactions: Transactions,
    private readonly ledger: StockLedger,
    private readonly ownership: BrandOwnership,
  ) {}

  async create(ctx: BrandContext, input: CreateProductDto): Promise<ProductView> {
    const brandId = ctx.brandId;
    assertDistinctSizes(input.sizes ?? []);
    const productId = await translateCatalogClashes(() =>
      this.transactions.run(async (tx) => {
        const product = await this.catalog.insertProduct(tx, {
          brandId,
          name: input.name.trim(),
          article: input.article.trim(),
          storefrontArticle: input.storefrontArticle?.trim() ?? null,
          priceKopeks: input.priceKopeks,
          attributes: input.attributes ?? {},
        });
        const sizes = input.sizes ?? [];
        const saved = await this.addSizes(tx, product, sizes);
        await this.catalog.appendProductEvent(tx, product.id, 'product.created');
        await this.giveInitialStock(tx, ctx, product, saved, sizes);
        return product.id;
      }),
    );
    return this.view(productId);
  }

  async update(ctx: BrandContext, productId: number, input: UpdateProductDto): Promise<ProductView> {
    const product = await this.owned(ctx, productId);
    assertDistinctSizes(input.sizes ?? []);
    await translateCatalogClashes(() =>
      this.transactions.run(async (tx) => {
        // Under the product's lock: concurrent changes take turns, each event seeing the one before.
        const current = (await this.catalog.lockProduct(tx, product.id)) ?? product;
        const change: ProductChange = {};
        if (input.name !== undefined) change.name = input.name.trim();
        if (input.article !== undefined) change.article = input.article.trim();
        if (input.storefrontArticle !== undefined) change.storefrontArticle = input.storefrontArticle?.trim() ?? null;
        if (input.priceKopeks !== undefined) change.priceKopeks = input.priceKopeks;
        let changed = (Object.keys(change) as Array<keyof ProductChange>).some(
          (field) => change[field] !== current[field],
        );
        await this.catalog.updateProduct(tx, product.id, change);
        if (input.attributes !== undefined) {
          changed = (await this.catalog.replaceAttributes(tx, product.id, input.attributes)) || changed;
        }

        const existing = await this.catalog.sizesOfProduct(tx, product.id);
        const byKey = new Map(existing.map((s) => [s.nameKey, s]));
        const added: SizeDto[] = [];
        for (const size of input.sizes ?? []) {
          const current = byKey.get(sizeKeyOf(size.name));
          if (!current) added.push(size);
          else if (size.priceKopeks !== undefined && size.priceKopeks !== current.priceKopeks) {
            await this.catalog.setSizePrice(tx, current.id, size.priceKopeks);
            changed = true;
          }
        }
        const saved = await this.addSizes(tx, product, added);
        // Any change of the product records one event; a request that changed nothing records none.
        if (changed || saved.length > 0) await this.catalog.appendProductEvent(tx, product.id, 'product.updated');
        await this.giveInitialStock(tx, ctx, product, saved, added);
      }),
    );
    return this.view(product.id);
  }

  async list(ctx: BrandContext): Promise<ProductView[]> {
    return this.views(await this.catalog.productsOfBrand(ctx.brandId));
  }

  async get(ctx: BrandContext, productId: number): Promise<ProductView> {
    return (await this.views([await this.owned(ctx, productId)]))[0];
  }

  /** The brand's whole catalog with stock, for the production API. */
  async catalogOf(brandId: number): Promise<ProductView[]> {
    return this.views(await this.catalog.productsOfBrand(brandId));
  }

  /** The brand's sizes with their stock, by product; only those below zero, lowest first, when `shortOnly`. */
  stockLevels(brandId: number, shortOnly = false): Promise<StockLevelRow[]> {
    return this.catalog.stockLevels(brandId, shortOnly);
  }

  private async addSizes(tx: Tx, product: ProductEntity, sizes: SizeDto[]): Promise<Array<{ id: number }>> {
    if (sizes.length === 0) return [];
    return this.catalog.insertSizes(
      tx,
      sizes.map((size) => ({
        productId: product.id,
        brandId: product.brandId,
        name: size.name.trim(),
        nameKey: sizeKeyOf(size.name),
        priceKopeks: size.priceKopeks ?? null,
      })),
    );
  }

  /** Initial stock goes through the ledger like every other change (its events' reason `initial`). */
  private async giveInitialStock(
    tx: Tx,
    ctx: BrandContext,
    product: ProductEntity,
    saved: Array<{ id: number }>,
    sizes: SizeDto[],
  ): Promise<void> {
    if (saved.length === 0) return;
    await this.ledger.apply(
      tx,
      product.brandId,
      saved.map((row, i) => ({ sizeId: row.id, delta: sizes[i].stock ?? 0, reason: 'initial' as const })),
      actorOf(ctx),
    );
  }

  private async owned(ctx: BrandContext, productId: number): Promise<ProductEntity> {
    const product = await this.catalog.productById(productId);
    return this.ownership.assertOwned(ctx, product, { resource: 'product', id: productId });
  }

  private async view(productId: number): Promise<ProductView> {
    return (await this.views([(await this.catalog.productById(productId))!]))[0];
  }

  private async views(products: ProductEntity[]): Promise<ProductView[]> {
    if (products.length === 0) return [];
    const sizes = await this.catalog.sizesOfProducts(products.map((p) => p.id));
    return products.map((p) => ({
      id: p.id,
      name: p.name,
      article: p.article,
      storefrontArticle: p.storefrontArticle,
      priceKopeks: p.priceKopeks,
      attributes: p.attributes,
      sizes: sizes
        .filter((s) => s.productId === p.id)
        .map((s) => ({ id: s.id, name: s.name, priceKopeks: s.priceKopeks, stock: s.stock })),
    }));
  }
}

function assertDistinctSizes(sizes: SizeDto[]): void {
  const seen = new Set<string>();
  for (const size of sizes) {
    const key = sizeKeyOf(size.name);
    if (seen.has(key)) throw AppError.badRequest([ErrorText.sizeNameRepeated(size.name)]);
    seen.add(key);
  }
}
