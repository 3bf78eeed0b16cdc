-- Erasure: empties the buyer's data that idempotency_keys holds for the orders
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 orderIds
UPDATE idempotency_keys AS t
SET
  response_body = CASE
    WHEN t.response_body ? 'recipient' THEN t.response_body || '{"comment": "", "recipient": {"fullName": "", "surname": "", "firstName": "", "patronymic": "", "phone": "", "email": null}}'::jsonb
    WHEN t.response_body -> 'order' ? 'recipient' THEN jsonb_set(
      t.response_body,
      '{order}',
      (t.response_body -> 'order') || '{"comment": "", "recipient": {"fullName": "", "surname": "", "firstName": "", "patronymic": "", "phone": "", "email": null}}'::jsonb
    )
    ELSE t.response_body
  END,
  effects = CASE
    WHEN t.response_status IS NULL THEN t.effects
    ELSE '{}'
  END
WHERE
  (
    t.response_body -> 'order' ->> 'id' = ANY ($1::INT[]::TEXT[])
    OR t.response_body ->> 'id' = ANY ($1::INT[]::TEXT[])
  )
