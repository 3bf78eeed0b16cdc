-- Erasure: the buyer's other orders (by order-id), read without a lock
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId, $2 orderId, $3 lockedIds
SELECT
  o.id,
  o.status,
  o.personal_data_erased_at
FROM
  orders o
WHERE
  o.brand_id = $1
  AND o.id = $2
  AND o.id <> ALL ($3::INT[])
ORDER BY
  o.id
