-- The retention sweep’s claim: finished orders past their brand’s retention, locked, SKIP LOCKED
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 batch
SELECT
  o.id,
  o.brand_id
FROM
  orders o
  JOIN personal_data_retention r ON r.brand_id = o.brand_id
  AND r.days IS NOT NULL
WHERE
  o.personal_data_erased_at IS NULL
  AND o.status IN ('completed', 'returned', 'cancelled')
  AND o.updated_at <= now() - make_interval(days => r.days)
ORDER BY
  o.updated_at
LIMIT
  $1
FOR UPDATE OF
  o SKIP LOCKED
