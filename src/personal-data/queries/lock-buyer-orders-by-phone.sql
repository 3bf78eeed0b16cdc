-- Erasure: the buyer's orders (by phone) in a final state, locked
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId, $2 phoneE164, $3 phoneAsSent, $4 finalStatuses
SELECT
  o.id,
  o.status,
  o.personal_data_erased_at
FROM
  orders o
WHERE
  o.brand_id = $1
  AND (
    (
      o.recipient_phone_normalized = $2
      AND $2 IS NOT NULL
    )
    OR btrim(o.recipient_phone) = $3
  )
  AND o.status = ANY ($4::VARCHAR[])
ORDER BY
  o.id
FOR UPDATE
