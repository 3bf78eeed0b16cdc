import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Tx } from '../database/transactions';
import { DomainEvents } from '../domain-events/domain-events';
import type { EventPart } from '../domain-events/domain-events.sql';
import { PRODUCT_EVENT_DATA } from './catalog.repository';
import type { CurrentProduct, ImportPlan, StorefrontHolder } from './catalog-import-plan';

/**
 * The product events of an import (contract §16), one statement for all: $1 the ids of the products
 * created, $2 of those changed. The import holds every existing product's row; new ones are its own.
 */
const importEvents = (ids: string, type: string): EventPart => ({
  subject: 'product',
  brandId: 'p.brand_id',
  subjectId: 'p.id',
  type: `'${type}'`,
  data: PRODUCT_EVENT_DATA,
  from: `(SELECT id, brand_id, article, storefront_article, name, price_kopeks FROM products WHERE id = ANY(${ids}::int[])) AS p`,
});

/** The events of an import: $1 the products it created, $2 those it changed. */
export const IMPORT_EVENTS = [importEvents('$1', 'product.created'), importEvents('$2', 'product.updated')];

/** One line of the export: a size of a product, or a product without sizes (size columns null). */
export interface ExportRow {
  article: string;
  name: string;
  storefront_article: string | null;
  price_kopeks: string;
  size: string | null;
  size_price_kopeks: string | null;
}

/**
 * The catalog import's and export's statements (contract §18): a bounded number of set-based
 * statements whatever the file's size, each taking its lines as arrays.
 */
@Injectable()
export class CatalogImportRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: DomainEvents,
  ) {}

  /**
   * Imports into one brand take turns (to the end of `tx`): each reads what the one before it
   * committed. False when another holds the turn: a waiter must not hold a pool connection.
   */
  async tryLockBrandCatalog(tx: Tx, brandId: number): Promise<boolean> {
    const rows: Array<{ locked: boolean }> = await tx.query(
      `SELECT pg_try_advisory_xact_lock(hashtext('catalog-import'), $1) AS locked`,
      [brandId],
    );
    return rows[0].locked;
  }

  /**
   * The brand's products with these articles and their sizes, each product's row locked (in id
   * order) against any other change until `tx` ends, so that its event is numbered after theirs.
   */
  async lockProducts(tx: Tx, brandId: number, articles: string[]): Promise<Map<string, CurrentProduct>> {
    const rows: Array<{
      id: number;
      article: string;
      name: string;
      storefront_article: string | null;
      price_kopeks: string;
      size_id: number | null;
      name_key: string | null;
      size_price: string | null;
    }> = await tx.query(
      `SELECT p.id, p.article, p.name, p.storefront_article, p.price_kopeks,
              s.id AS size_id, s.name_key, s.price_kopeks AS size_price
         FROM unnest($2::text[]) AS a(article)
         JOIN products p ON p.brand_id = $1 AND p.article = a.article
         LEFT JOIN product_sizes s ON s.product_id = p.id
        ORDER BY p.id, s.id
          FOR NO KEY UPDATE OF p`,
      [brandId, articles],
    );
    const products = new Map<string, CurrentProduct>();
    for (const row of rows) {
      let product = products.get(row.article);
      if (!product) {
        product = {
          id: row.id,
          article: row.article,
          name: row.name,
          storefrontArticle: row.storefront_article,
          priceKopeks: Number(row.price_kopeks),
          sizes: [],
        };
        products.set(row.article, product);
      }
      if (row.size_id !== null) {
        product.sizes.push({
          id: row.size_id,
          nameKey: row.name_key!,
          priceKopeks: row.size_price === null ? null : Number(row.size_price),
        });
      }
    }
    return products;
  }

  /** The brand's products holding any of these storefront articles. */
  storefrontHolders(tx: Tx, brandId: number, storefrontArticles: string[]): Promise<StorefrontHolder[]> {
    if (storefrontArticles.length === 0) return Promise.resolve([]);
    return tx.query(
      `SELECT p.article, p.storefront_article AS "storefrontArticle"
         FROM unnest($2::text[]) AS a(storefront_article)
         JOIN products p ON p.brand_id = $1 AND p.storefront_article = a.storefront_article`,
      [brandId, storefrontArticles],
    );
  }

  /** Writes the plan: at most eight statements, the unique keys still the last word on every clash. */
  async apply(tx: Tx, brandId: number, plan: ImportPlan): Promise<void> {
    if (plan.storefrontMoves.length > 0) {
      await tx.query(`UPDATE products SET storefront_article = NULL WHERE id = ANY($1::int[])`, [plan.storefrontMoves]);
    }
    if (plan.updates.length > 0) {
      const u = plan.updates;
      await tx.query(
        `UPDATE products p SET name = u.name, storefront_article = u.storefront_article, price_kopeks = u.price_kopeks,
                updated_at = now()
           FROM unnest($1::int[], $2::text[], $3::text[], $4::bigint[]) AS u(id, name, storefront_article, price_kopeks)
          WHERE p.id = u.id`,
        [u.map((p) => p.id), u.map((p) => p.name), u.map((p) => p.storefrontArticle), u.map((p) => p.priceKopeks)],
      );
    }
    const created = new Map<string, number>();
    if (plan.creates.length > 0) {
      const c = plan.creates;
      const rows: Array<{ id: number; article: string }> = await tx.query(
        `INSERT INTO products (brand_id, article, name, storefront_article, price_kopeks)
         SELECT $1, c.article, c.name, c.storefront_article, c.price_kopeks
           FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[]) WITH ORDINALITY
                AS c(article, name, storefront_article, price_kopeks, n)
          ORDER BY c.n
         RETURNING id, article`,
        [
          brandId,
          c.map((p) => p.article),
          c.map((p) => p.name),
          c.map((p) => p.storefrontArticle),
          c.map((p) => p.priceKopeks),
        ],
      );
      for (const row of rows) created.set(row.article, row.id);
    }
    if (plan.newSizes.length > 0) {
      const s = plan.newSizes;
      // Stock starts at zero and is not the import's to change (contract §18): no ledger row, no stock event.
      await tx.query(
        `INSERT INTO product_sizes (product_id, brand_id, name, name_key, price_kopeks)
         SELECT p.id, p.brand_id, s.name, s.name_key, s.price_kopeks
           FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[]) WITH ORDINALITY
                AS s(article, name, name_key, price_kopeks, n)
           JOIN products p ON p.brand_id = $1 AND p.article = s.article
          ORDER BY s.n`,
        [brandId, s.map((z) => z.article), s.map((z) => z.name), s.map((z) => z.nameKey), s.map((z) => z.priceKopeks)],
      );
    }
    if (plan.repricedSizes.length > 0) {
      const r = plan.repricedSizes;
      await tx.query(
        `UPDATE product_sizes s SET price_kopeks = r.price_kopeks
           FROM unnest($1::int[], $2::bigint[]) AS r(id, price_kopeks) WHERE s.id = r.id`,
        [r.map((z) => z.id), r.map((z) => z.priceKopeks)],
      );
    }
    if (created.size > 0 || plan.changedIds.length > 0) {
      // The subscribers' parts join CTEs, which the planner takes for one row each: thousands of
      // events would be joined by nested loops, each over all the others (24 s for 10 000 events,
      // 1 s with hash joins: docs/performance.md, PERF-24). For this statement only. A plan without
      // nested loops costs the planner some 10^10, far over jit_above_cost, and compiling it took
      // 0.6–2 s of a 20 ms import: its cost is the setting's artefact, not work worth compiling.
      await tx.query(`SET LOCAL enable_nestloop = off; SET LOCAL jit = off`);
      await this.events.append(tx, IMPORT_EVENTS, [[...created.values()], plan.changedIds]);
      await tx.query(`SET LOCAL enable_nestloop TO DEFAULT; SET LOCAL jit TO DEFAULT`);
    }
  }

  /** Up to `limit` lines of whole products after article `after`, in article order (byte order, whatever the collation). */
  exportPage(brandId: number, after: string | null, limit: number): Promise<ExportRow[]> {
    return this.db.query(
      `SELECT p.article, p.name, p.storefront_article, p.price_kopeks, s.name AS size, s.price_kopeks AS size_price_kopeks
         FROM (SELECT id, article, name, storefront_article, price_kopeks FROM products
                WHERE brand_id = $1 AND ($2::text IS NULL OR article COLLATE "C" > $2::text COLLATE "C")
                ORDER BY article COLLATE "C" LIMIT $3) AS p
         LEFT JOIN product_sizes s ON s.product_id = p.id
        ORDER BY p.article COLLATE "C", s.id`,
      [brandId, after, limit],
    );
  }
}
