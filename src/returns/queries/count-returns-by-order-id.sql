-- How many of a brand’s returns the list counts by orderId
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId, $2 orderId
SELECT
  count(*)::int AS n
FROM
  returns
WHERE
  brand_id = ANY (ARRAY[$1]::INT[])
  AND order_id = $2
