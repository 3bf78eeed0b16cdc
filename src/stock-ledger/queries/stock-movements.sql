-- A brand’s ledger rows, newest first
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId, $2 sizeId, $3 limit
SELECT
  id,
  size_id,
  delta,
  reason,
  order_id,
  acceptance_id,
  note,
  actor_kind,
  actor_id,
  created_at
FROM
  stock_movements
WHERE
  brand_id = $1
  AND (
    $2::int IS NULL
    OR size_id = $2
  )
ORDER BY
  id DESC
LIMIT
  $3
