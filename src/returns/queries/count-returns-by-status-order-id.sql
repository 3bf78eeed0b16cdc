-- How many of a brand’s returns the list counts by status, orderId
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId, $2 status, $3 orderId
SELECT
  count(*)::int AS n
FROM
  returns
WHERE
  brand_id = ANY (ARRAY[$1]::INT[])
  AND status = $2
  AND order_id = $3
