/**
 * The storefront matching rules (spec 4.1 rules 2–4), once, as statement parts: a line names a
 * product of the brand by its storefront article exactly and one of its sizes by the size key;
 * it is priced with the given price, else the size's, else the product's. The storefront order's
 * single statement (orders) composes the matching part, the matcher and the preflight read the
 * lookup part, so the webhook's write, its 422 and the preflight cannot disagree on a line.
 * Arguments are SQL expressions of the calling statement; `lines` is a FROM item of
 * (article, size_key, quantity, price, line), as storefrontLinesFrom() gives it.
 */
export const CatalogSql = {
  /**
   * The lines that match, when `condition` holds. Yields (line, product_id, size_id, article,
   * storefront_article, size, quantity, price, stock); a line without a match yields nothing.
   */
  matchStorefrontLines: (p: { brandId: string; lines: string; condition: string }) =>
    `${storefrontLines(p.brandId, p.lines, 'JOIN')}
      WHERE ${p.condition}`,

  /**
   * Every line, in order, matched or not: product_id is null when no product has the article,
   * size_id when the product has no such size (then price and stock mean nothing).
   */
  lookupStorefrontLines: (p: { brandId: string; lines: string }) =>
    `${storefrontLines(p.brandId, p.lines, 'LEFT JOIN')}
      ORDER BY l.line`,

  /** The `lines` FROM item from four array expressions (articles, size keys, quantities, given prices). */
  storefrontLinesFrom: (a: { articles: string; sizeKeys: string; quantities: string; prices: string }) =>
    `unnest(${a.articles}::text[], ${a.sizeKeys}::text[], ${a.quantities}::int[], ${a.prices}::bigint[])
                 WITH ORDINALITY AS l(article, size_key, quantity, price, line)`,
};

function storefrontLines(brandId: string, lines: string, join: 'JOIN' | 'LEFT JOIN'): string {
  return `SELECT l.line::int AS line, p.id AS product_id, s.id AS size_id, p.article, p.storefront_article, s.name AS size,
            l.quantity, COALESCE(l.price, s.price_kopeks, p.price_kopeks) AS price, s.stock
       FROM ${lines}
       ${join} products p ON p.brand_id = ${brandId} AND p.storefront_article = l.article
       ${join} product_sizes s ON s.product_id = p.id AND s.name_key = l.size_key`;
}
