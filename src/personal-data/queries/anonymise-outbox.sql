-- Erasure: empties the buyer's data that outbox holds for the orders
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 orderIds
UPDATE outbox AS t
SET
  last_error = NULL,
  payload = t.payload - 'lastError'
WHERE
  t.payload ->> 'orderId' = ANY ($1::INT[]::TEXT[])
  AND (
    t.last_error IS NOT NULL
    OR t.payload ? 'lastError'
  )
