-- How many of a brand’s returns the list counts
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId
SELECT
  count(*)::int AS n
FROM
  returns
WHERE
  brand_id = ANY (ARRAY[$1]::INT[])
