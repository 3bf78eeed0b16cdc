/**
 * The catalog's statement part for the storefront order's single statement (orders), which
 * matches its lines in the same round trip as it writes them. Arguments are SQL expressions of
 * the calling statement.
 */
export const CatalogSql = {
  /**
   * The lines matched to the brand's sizes by storefront article and size key, priced (the given
   * price, else the size's, else the product's), when `condition` holds. `lines` is a FROM item
   * of (article, size_key, quantity, price, line). Yields (line, product_id, size_id, article,
   * storefront_article, size, quantity, price); a line without a match yields nothing.
   */
  matchStorefrontLines: (p: { brandId: string; lines: string; condition: string }) =>
    `SELECT l.line::int AS line, p.id AS product_id, s.id AS size_id, p.article, p.storefront_article, s.name AS size,
            l.quantity, COALESCE(l.price, s.price_kopeks, p.price_kopeks) AS price
       FROM ${p.lines}
       JOIN products p ON p.brand_id = ${p.brandId} AND p.storefront_article = l.article
       JOIN product_sizes s ON s.product_id = p.id AND s.name_key = l.size_key
      WHERE ${p.condition}`,
};
