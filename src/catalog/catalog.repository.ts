import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { PreparedStatements, type Prepared } from '../database/prepared';
import type { Tx } from '../database/transactions';
import { ProductSizeEntity } from './product-size.entity';
import { ProductEntity } from './product.entity';
import { CatalogSql } from './catalog.sql';
import { DomainEvents } from '../domain-events/domain-events';
import { eventDataOf, type EventPart } from '../domain-events/domain-events.sql';
import { jsonbObjectOf } from '../database/json-object.sql';
import type { ProductEventData, ProductEventSize } from './dto/product-event-data';
import type { PRODUCT_EVENT_TYPES } from './product-events';

/**
 * A product's event data (contract §16): the product `p` as the change left it, its sizes in id
 * order (the order the catalog lists them).
 */
export const PRODUCT_EVENT_DATA = eventDataOf<ProductEventData>({
  productId: 'p.id',
  article: 'p.article',
  storefrontArticle: 'p.storefront_article',
  name: 'p.name',
  priceKopeks: 'p.price_kopeks',
  sizes: `COALESCE((SELECT jsonb_agg(${jsonbObjectOf<ProductEventSize>({
    sizeId: 's.id',
    name: 's.name',
    priceKopeks: 's.price_kopeks',
  })} ORDER BY s.id) FROM product_sizes s WHERE s.product_id = p.id), '[]'::jsonb)`,
});

/** A product's event: $1 the product, $2 the type. The caller holds the product's row. */
export const PRODUCT_EVENT: EventPart = {
  subject: 'product',
  brandId: 'p.brand_id',
  subjectId: 'p.id',
  type: '$2',
  data: PRODUCT_EVENT_DATA,
  from: '(SELECT id, brand_id, article, storefront_article, name, price_kopeks FROM products WHERE id = $1) AS p',
};

/** A product and one of its sizes (or none, for a product without sizes), as line matching reads them. */
export interface SizeMatchRow {
  product_id: number;
  article: string;
  storefront_article: string | null;
  product_price: string;
  size_id: number | null;
  size_name: string | null;
  name_key: string | null;
  size_price: string | null;
}

/** A storefront line and what it matched: null ids where it matched no product, or no size of it. */
export interface StorefrontLineRow {
  /** 1-based, in the order of the lines. */
  line: number;
  product_id: number | null;
  size_id: number | null;
  /** bigint as text: the given price, else the size's, else the product's. */
  price: string | null;
  stock: number | null;
}

export interface StockLevelRow {
  product_id: number;
  size_id: number;
  article: string;
  storefront_article: string | null;
  name: string;
  size: string;
  stock: number;
}

export type NewProduct = Pick<
  ProductEntity,
  'brandId' | 'name' | 'article' | 'storefrontArticle' | 'priceKopeks' | 'attributes'
>;
export type ProductChange = Partial<Pick<ProductEntity, 'name' | 'article' | 'storefrontArticle' | 'priceKopeks'>>;
export type NewSize = Pick<ProductSizeEntity, 'productId' | 'brandId' | 'name' | 'nameKey' | 'priceKopeks'>;

const MATCH_COLUMNS = `p.id AS product_id, p.article, p.storefront_article, p.price_kopeks AS product_price,
       s.id AS size_id, s.name AS size_name, s.name_key, s.price_kopeks AS size_price`;

export const MATCH_BY_ARTICLE: Prepared = {
  name: 'match_lines_by_article',
  text: `SELECT ${MATCH_COLUMNS}
           FROM products p LEFT JOIN product_sizes s ON s.product_id = p.id
          WHERE p.brand_id = $1 AND p.article = ANY($2::text[])`,
};

export const LOOKUP_STOREFRONT_LINES: Prepared = {
  name: 'lookup_storefront_lines',
  text: CatalogSql.lookupStorefrontLines({
    brandId: '$1',
    lines: CatalogSql.storefrontLinesFrom({ articles: '$2', sizeKeys: '$3', quantities: '$4', prices: '$5' }),
  }),
};

/** The products and product_sizes tables (the stock column is written by the stock ledger only). */
@Injectable()
export class CatalogRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly statements: PreparedStatements,
    private readonly events: DomainEvents,
  ) {}

  /**
   * Locks the product's row for the rest of `tx` (its changes and its event are then numbered
   * and read in turn) and reads it as the last change left it. Not a key lock: orders may still
   * name the product.
   */
  async lockProduct(tx: Tx, productId: number): Promise<ProductEntity | null> {
    await tx.query('SELECT id FROM products WHERE id = $1 FOR NO KEY UPDATE', [productId]);
    return tx.getRepository(ProductEntity).findOne({ where: { id: productId } });
  }

  /** Records the product's event, from the product as `tx` left it. */
  appendProductEvent(tx: Tx, productId: number, type: (typeof PRODUCT_EVENT_TYPES)[number]): Promise<void> {
    return this.events.append(tx, PRODUCT_EVENT, [productId, type]);
  }

  insertProduct(tx: Tx, product: NewProduct): Promise<ProductEntity> {
    const products = tx.getRepository(ProductEntity);
    return products.save(products.create(product));
  }

  async updateProduct(tx: Tx, productId: number, change: ProductChange): Promise<void> {
    if (Object.keys(change).length > 0) await tx.getRepository(ProductEntity).update({ id: productId }, change);
  }

  /** Replaces the attributes as a whole document, not merged; true when they were different. */
  async replaceAttributes(tx: Tx, productId: number, attributes: Record<string, unknown>): Promise<boolean> {
    const rows: Array<{ changed: number }> = await tx.query(
      `WITH changed AS (UPDATE products SET attributes = $2::jsonb, updated_at = now()
                         WHERE id = $1 AND attributes IS DISTINCT FROM $2::jsonb RETURNING id)
       SELECT count(*)::int AS changed FROM changed`,
      [productId, JSON.stringify(attributes)],
    );
    return rows[0].changed > 0;
  }

  /** New sizes start at zero stock: their initial stock goes through the ledger. */
  insertSizes(tx: Tx, sizes: NewSize[]): Promise<ProductSizeEntity[]> {
    const repo = tx.getRepository(ProductSizeEntity);
    return repo.save(sizes.map((size) => repo.create({ ...size, stock: 0 })));
  }

  async setSizePrice(tx: Tx, sizeId: number, priceKopeks: number | null): Promise<void> {
    await tx.getRepository(ProductSizeEntity).update({ id: sizeId }, { priceKopeks });
  }

  sizesOfProduct(tx: Tx, productId: number): Promise<ProductSizeEntity[]> {
    return tx.getRepository(ProductSizeEntity).find({ where: { productId } });
  }

  sizesOfProducts(productIds: number[]): Promise<ProductSizeEntity[]> {
    return this.db
      .getRepository(ProductSizeEntity)
      .find({ where: { productId: In(productIds) }, order: { id: 'ASC' } });
  }

  productsOfBrand(brandId: number): Promise<ProductEntity[]> {
    return this.db.getRepository(ProductEntity).find({ where: { brandId }, order: { id: 'ASC' } });
  }

  productById(productId: number): Promise<ProductEntity | null> {
    return this.db.getRepository(ProductEntity).findOne({ where: { id: productId } });
  }

  /** The brand's products with these articles, each with its sizes. */
  matchByArticles(brandId: number, articles: string[]): Promise<SizeMatchRow[]> {
    return this.statements.read<SizeMatchRow>(MATCH_BY_ARTICLE, [brandId, articles]);
  }

  /** Each storefront line with what the storefront rules match it to (CatalogSql.lookupStorefrontLines). */
  lookupStorefrontLines(
    brandId: number,
    lines: { articles: string[]; sizeKeys: string[]; quantities: number[]; prices: Array<number | null> },
  ): Promise<StorefrontLineRow[]> {
    return this.statements.read<StorefrontLineRow>(LOOKUP_STOREFRONT_LINES, [
      brandId,
      lines.articles,
      lines.sizeKeys,
      lines.quantities,
      lines.prices,
    ]);
  }

  /** Sizes by id, whatever their brand (the caller checks ownership). */
  sizesByIds(sizeIds: number[]): Promise<Array<SizeMatchRow & { brand_id: number }>> {
    return this.db.query(
      `SELECT ${MATCH_COLUMNS}, p.brand_id
         FROM product_sizes s JOIN products p ON p.id = s.product_id
        WHERE s.id = ANY($1::int[])`,
      [sizeIds],
    );
  }

  /** The brand's sizes with their stock, by product then size; only those below zero when `shortOnly`. */
  stockLevels(brandId: number, shortOnly: boolean): Promise<StockLevelRow[]> {
    return this.db.query(
      `SELECT s.product_id, s.id AS size_id, p.article, p.storefront_article, p.name, s.name AS size, s.stock
         FROM product_sizes s JOIN products p ON p.id = s.product_id
        WHERE s.brand_id = $1 AND (NOT $2 OR s.stock < 0)
        ORDER BY ${shortOnly ? 's.stock, s.id' : 'p.id, s.id'}`,
      [brandId, shortOnly],
    );
  }
}
