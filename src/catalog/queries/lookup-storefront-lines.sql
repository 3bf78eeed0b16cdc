-- A storefront order’s lines matched to the brand’s sizes (the preflight)
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId, $2 storefrontArticles, $3 sizeKeys, $4 quantities, $5 givenPrices
SELECT
  l.line::int AS line,
  p.id AS product_id,
  s.id AS size_id,
  p.article,
  p.storefront_article,
  s.name AS size,
  l.quantity,
  COALESCE(l.price, s.price_kopeks, p.price_kopeks) AS price,
  s.stock
FROM
  unnest($2::TEXT[], $3::TEXT[], $4::INT[], $5::BIGINT[]) WITH ORDINALITY AS l (article, size_key, quantity, price, line)
  LEFT JOIN products p ON p.brand_id = $1
  AND p.storefront_article = l.article
  LEFT JOIN product_sizes s ON s.product_id = p.id
  AND s.name_key = l.size_key
ORDER BY
  l.line
