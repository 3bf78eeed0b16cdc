import { Injectable } from '@nestjs/common';
import type { BrandContext } from '../common/context/request-context';
import { ErrorText } from '../common/errors/error-texts';
import { BrandOwnership } from '../security-journal/brand-ownership';
import { CatalogRepository, type SizeMatchRow as Row, type StorefrontLineRow } from './catalog.repository';

/** A catalog size an order or acceptance line resolved to, with its catalog price. */
export interface ResolvedSize {
  productId: number;
  sizeId: number;
  article: string;
  storefrontArticle: string | null;
  size: string;
  /** The size's own price, else the product's. */
  catalogPriceKopeks: number;
}

export interface LineRef {
  article: string;
  size: string;
}

export interface Resolution {
  /** In the order of the lines given; undefined where a line did not resolve. */
  lines: Array<ResolvedSize | undefined>;
  /** One message per line that did not resolve, naming it. */
  problems: string[];
}

/**
 * How a line's size is compared with a catalog size's `name_key`, which the table holds to
 * PostgreSQL's lower(name): that maps character by character, so this does too (JavaScript's
 * own lowercases a final Σ to ς, and İ to two characters, which the table would refuse).
 */
export function sizeKeyOf(size: string): string {
  let key = '';
  for (const character of size.trim()) key += String.fromCodePoint(character.toLowerCase().codePointAt(0)!);
  return key;
}

/** A storefront line as the webhook takes it. */
export interface StorefrontLineRef extends LineRef {
  quantity: number;
  /** The storefront's own price of one unit, if it gave one. */
  priceKopeks?: number;
}

/** A storefront line as the catalog matched it now, or the problem the webhook's 422 names for it. */
export type StorefrontLineMatch =
  | {
      matched: true;
      productId: number;
      sizeId: number;
      /** The price of one unit the order would get: the given one, else the size's, else the product's. */
      priceKopeks: number;
      /** The size's stock as last committed (read, not locked). */
      stock: number;
    }
  | { matched: false; problem: string };

export interface StorefrontResolution {
  /** In the order of the lines given. */
  lines: StorefrontLineMatch[];
  /** Each unmatched line's problem, in the order of the lines. */
  problems: string[];
}

/** Storefront lines as the parallel arrays CatalogSql.storefrontLinesFrom() takes. */
export function storefrontLineArrays(lines: StorefrontLineRef[]) {
  return {
    articles: lines.map((l) => l.article),
    sizeKeys: lines.map((l) => sizeKeyOf(l.size)),
    quantities: lines.map((l) => l.quantity),
    prices: lines.map((l) => l.priceKopeks ?? null),
  };
}

/** What the lookup found for line `index` (CatalogSql.lookupStorefrontLines), as a match or the line's problem. */
export function storefrontLineMatch(
  index: number,
  line: LineRef,
  row: StorefrontLineRow | undefined,
): StorefrontLineMatch {
  if (!row || row.product_id === null) {
    return { matched: false, problem: ErrorText.lineMatchesNoProduct(index, 'storefront article', line.article) };
  }
  if (row.size_id === null || row.price === null || row.stock === null) {
    return { matched: false, problem: ErrorText.lineHasNoSize(index, line.article, line.size) };
  }
  return {
    matched: true,
    productId: row.product_id,
    sizeId: row.size_id,
    priceKopeks: Number(row.price),
    stock: row.stock,
  };
}

/**
 * Resolves lines to catalog sizes within one brand: by the storefront article (the storefront
 * webhook and its preflight, with CatalogSql's rules) or by the product's own article
 * (production acceptances). Never by name. Size names compare case-insensitively; a product with
 * no legacy sizes matches nothing.
 */
@Injectable()
export class CatalogMatcher {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly ownership: BrandOwnership,
  ) {}

  /**
   * The storefront lines matched as the storefront order's statement matches them, each with the
   * problem text of the webhook's 422 when it does not match.
   */
  async byStorefrontArticle(brandId: number, lines: StorefrontLineRef[]): Promise<StorefrontResolution> {
    const rows = await this.catalog.lookupStorefrontLines(brandId, storefrontLineArrays(lines));
    const byLine = new Map(rows.map((row) => [row.line, row]));
    const matches = lines.map((line, index) => storefrontLineMatch(index, line, byLine.get(index + 1)));
    return { lines: matches, problems: matches.flatMap((m) => (m.matched ? [] : [m.problem])) };
  }

  byArticle(brandId: number, lines: LineRef[]): Promise<Resolution> {
    return this.resolve(brandId, lines);
  }

  /** Sizes addressed by id: unknown ones are reported; another brand's is a cross-brand attempt (403). */
  async byIds(ctx: BrandContext, sizeIds: number[]): Promise<{ sizes: Map<number, ResolvedSize>; missing: number[] }> {
    const rows = await this.catalog.sizesByIds(sizeIds);
    for (const row of rows) {
      await this.ownership.assertOwned(ctx, { brandId: row.brand_id }, { resource: 'product_size', id: row.size_id! });
    }
    const sizes = new Map(rows.map((row) => [row.size_id!, toResolved(row)]));
    return { sizes, missing: sizeIds.filter((id) => !sizes.has(id)) };
  }

  private async resolve(brandId: number, lines: LineRef[]): Promise<Resolution> {
    const articles = [...new Set(lines.map((l) => l.article))];
    const rows = await this.catalog.matchByArticles(brandId, articles);
    const byArticle = new Map<string, Row[]>();
    for (const row of rows) byArticle.set(row.article, [...(byArticle.get(row.article) ?? []), row]);
    const problems: string[] = [];
    const resolved = lines.map((line, index) => {
      const candidates = byArticle.get(line.article);
      if (!candidates) {
        problems.push(ErrorText.lineMatchesNoProduct(index, 'article', line.article));
        return undefined;
      }
      const row = candidates.find((c) => c.name_key !== null && c.name_key === sizeKeyOf(line.size));
      if (!row) {
        problems.push(ErrorText.lineHasNoSize(index, line.article, line.size));
        return undefined;
      }
      return toResolved(row);
    });
    return { lines: resolved, problems };
  }
}

function toResolved(row: Row): ResolvedSize {
  return {
    productId: row.product_id,
    sizeId: row.size_id!,
    article: row.article,
    storefrontArticle: row.storefront_article,
    size: row.size_name!,
    catalogPriceKopeks: Number(row.size_price ?? row.product_price),
  };
}
