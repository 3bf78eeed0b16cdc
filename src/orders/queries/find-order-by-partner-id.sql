-- A brand’s order by its partnerOrderId
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId, $2 partnerOrderId
SELECT
  id,
  order_number,
  hash,
  total_kopeks,
  request_fingerprint
FROM
  orders
WHERE
  brand_id = $1
  AND partner_order_id = $2
