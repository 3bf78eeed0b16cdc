-- Erasure: the buyer's orders (by email) in a final state, locked
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId, $2 email, $3 finalStatuses
SELECT
  o.id,
  o.status,
  o.personal_data_erased_at
FROM
  orders o
WHERE
  o.brand_id = $1
  AND o.recipient_email = $2
  AND o.status = ANY ($3::VARCHAR[])
ORDER BY
  o.id
FOR UPDATE
