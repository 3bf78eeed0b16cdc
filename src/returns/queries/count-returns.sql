-- How many of a brand’s returns the list counts
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId
SELECT
  COALESCE(sum(returns), 0)::int AS n
FROM
  brand_return_counts
WHERE
  brand_id = ANY (ARRAY[$1]::INT[])
