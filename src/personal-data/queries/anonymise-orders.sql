-- Erasure: empties the buyer's data that orders holds for the orders
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 orderIds
UPDATE orders AS t
SET
  recipient_full_name = '',
  recipient_surname = '',
  recipient_first_name = '',
  recipient_patronymic = '',
  recipient_phone = '',
  recipient_phone_normalized = NULL,
  recipient_email = NULL,
  comment = '',
  cancel_reason = NULL,
  waybill_url = NULL
WHERE
  t.id = ANY ($1::INT[])
