-- Products and sizes of a brand by article
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId, $2 articles
SELECT
  p.id AS product_id,
  p.article,
  p.storefront_article,
  p.price_kopeks AS product_price,
  s.id AS size_id,
  s.name AS size_name,
  s.name_key,
  s.price_kopeks AS size_price
FROM
  products p
  LEFT JOIN product_sizes s ON s.product_id = p.id
WHERE
  p.brand_id = $1
  AND p.article = ANY ($2::TEXT[])
