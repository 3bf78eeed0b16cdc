-- A page of a brand’s orders by status, updatedSince, before
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId, $2 limit, $3 offset, $4 status, $5 updatedSince, $6 before
SELECT
  json_build_object(
    'items',
    COALESCE(
      (
        SELECT
          json_agg(
            json_build_object(
              'id',
              o.id,
              'orderNumber',
              o.order_number,
              'source',
              o.source,
              'partnerOrderId',
              o.partner_order_id,
              'status',
              o.status,
              'paymentStatus',
              o.payment_status,
              'deliveryStatus',
              o.delivery_status,
              'stockShortage',
              o.stock_shortage,
              'recipientName',
              o.recipient_full_name,
              'totalKopeks',
              o.total_kopeks,
              'orderedAt',
              to_char(o.ordered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'createdAt',
              to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'updatedAt',
              to_char(o.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'personalDataErasedAt',
              to_char(o.personal_data_erased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
            )
            ORDER BY
              o.id DESC
          )
        FROM
          (
            SELECT
              *
            FROM
              orders
            WHERE
              brand_id = ANY (ARRAY[$1]::INT[])
              AND status = $4
              AND updated_at >= $5::timestamptz
              AND id < $6
            ORDER BY
              brand_id DESC,
              id DESC
            LIMIT
              $2
            OFFSET
              $3
          ) o
      ),
      '[]'::json
    ),
    'total',
    (
      SELECT
        count(*)
      FROM
        orders
      WHERE
        brand_id = ANY (ARRAY[$1]::INT[])
        AND status = $4
        AND updated_at >= $5::timestamptz
    )
  )::text AS body
