-- Export: the buyer's orders (by phone) not yet anonymised
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId, $2 phoneE164, $3 phoneAsSent
SELECT
  o.id
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
  AND o.personal_data_erased_at IS NULL
ORDER BY
  o.id
