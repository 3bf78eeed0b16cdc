-- Erasure: empties the buyer's data that returns holds for the orders
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 orderIds
UPDATE returns AS t
SET
  reason_note = NULL
WHERE
  t.order_id = ANY ($1::INT[])
