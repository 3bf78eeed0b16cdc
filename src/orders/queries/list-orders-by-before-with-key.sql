-- A page of a brand’s orders by before, the integration key checked in it
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 keyFingerprint, $2 keyPermission, $3 settingsManage, $4 limit, $5 offset, $6 before
WITH
  key_check AS (
    SELECT
      k.id,
      k.brand_id,
      k.name,
      k.permissions,
      k.full_access,
      encode(k.fingerprint, 'hex') AS fingerprint,
      k.last_used_at,
      k.allowed_ips
    FROM
      integration_keys k
    WHERE
      k.fingerprint = $1
      AND k.revoked_at IS NULL
      AND (
        k.expires_at IS NULL
        OR k.expires_at > now()
      )
      AND EXISTS (
        SELECT
          1
        FROM
          users u
          LEFT JOIN memberships m ON m.user_id = u.id
          AND m.brand_id = k.brand_id
        WHERE
          u.id = k.created_by
          AND u.active
          AND CASE
            WHEN k.issued_as_superadmin THEN u.is_superadmin
            ELSE u.is_superadmin
            OR $3 = ANY (m.permissions)
          END
      )
  ),
  key_ok AS (
    SELECT
      id,
      brand_id
    FROM
      key_check
    WHERE
      allowed_ips IS NULL
      AND $2::text <> 'settings.manage'
      AND (
        full_access
        OR $2::text = ANY (permissions)
      )
  )
SELECT
  jsonb_build_object(
    'row',
    (
      SELECT
        to_jsonb(c)
      FROM
        key_check c
    ),
    'acted',
    EXISTS (
      SELECT
        1
      FROM
        key_ok
    )
  ) AS key_check,
  (
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
                  brand_id = ANY (ARRAY[k.brand_id]::INT[])
                  AND id < $6
                ORDER BY
                  brand_id DESC,
                  id DESC
                LIMIT
                  $4
                OFFSET
                  $5
              ) o
          ),
          '[]'::json
        ),
        'total',
        (
          SELECT
            COALESCE(sum(c.orders), 0)
          FROM
            brand_order_counts c
          WHERE
            c.brand_id = k.brand_id
        )
      )::text
    FROM
      key_ok k
  ) AS body
