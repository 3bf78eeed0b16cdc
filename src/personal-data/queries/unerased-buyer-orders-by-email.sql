-- Export: the buyer's orders (by email) not yet anonymised
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId, $2 email
SELECT
  o.id
FROM
  orders o
WHERE
  o.brand_id = $1
  AND o.recipient_email = $2
  AND o.personal_data_erased_at IS NULL
ORDER BY
  o.id
