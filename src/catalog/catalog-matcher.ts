import { Injectable } from '@nestjs/common';
import type { BrandContext } from '../common/context/request-context';
import { ErrorText } from '../common/errors/error-texts';
import { BrandOwnership } from '../security-journal/brand-ownership';
import { CatalogRepository, type SizeMatchRow as Row } from './catalog.repository';

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

/** How a line's size is compared with a catalog size's `name_key` (which is lower(name)). */
export function sizeKeyOf(size: string): string {
  return size.trim().toLowerCase();
}

/**
 * Resolves lines to catalog sizes within one brand: by the storefront article (the storefront
 * webhook) or by the product's own article (production acceptances). Never by name. Size names
 * compare case-insensitively; a product with no legacy sizes matches nothing.
 */
@Injectable()
export class CatalogMatcher {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly ownership: BrandOwnership,
  ) {}

  byStorefrontArticle(brandId: number, lines: LineRef[]): Promise<Resolution> {
    return this.resolve(brandId, lines, 'storefront_article', 'storefront article');
  }

  byArticle(brandId: number, lines: LineRef[]): Promise<Resolution> {
    return this.resolve(brandId, lines, 'article', 'article');
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

  private async resolve(
    brandId: number,
    lines: LineRef[],
    column: 'article' | 'storefront_article',
    label: string,
  ): Promise<Resolution> {
    const articles = [...new Set(lines.map((l) => l.article))];
    const rows = await this.catalog.matchByArticles(brandId, column, articles);
    const byArticle = new Map<string, Row[]>();
    for (const row of rows) {
      const key = column === 'article' ? row.article : row.storefront_article!;
      byArticle.set(key, [...(byArticle.get(key) ?? []), row]);
    }
    const problems: string[] = [];
    const resolved = lines.map((line, index) => {
      const candidates = byArticle.get(line.article);
      if (!candidates) {
        problems.push(ErrorText.lineMatchesNoProduct(index, label, line.article));
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
