-- A page of a brand’s returns by status, orderId, before
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId, $2 limit, $3 offset, $4 status, $5 orderId, $6 before
SELECT
  id,
  brand_id,
  return_number,
  order_id,
  order_number,
  external_return_id,
  origin,
  status,
  reason_code,
  reason_note,
  refund_kopeks,
  refund_status,
  created_at,
  approved_at,
  received_at,
  closed_at,
  canceled_at
FROM
  returns
WHERE
  brand_id = ANY (ARRAY[$1]::INT[])
  AND status = $4
  AND order_id = $5
  AND id < $6
ORDER BY
  brand_id DESC,
  id DESC
LIMIT
  $2
OFFSET
  $3
