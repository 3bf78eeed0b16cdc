-- A page of a brand’s events after a cursor, below the readers’ horizon
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 brandId, $2 types, $3 afterPosition, $4 afterId, $5 limit
SELECT
  e.id,
  e.brand_id,
  e.type,
  COALESCE(
    e.data,
    jsonb_build_object(
      'sizeId',
      e.subject_id,
      'productId',
      e.stock_product_id,
      'article',
      e.stock_article,
      'storefrontArticle',
      e.stock_storefront_article,
      'size',
      e.stock_size,
      'delta',
      e.stock_delta,
      'stock',
      e.stock_after,
      'reason',
      e.stock_reason,
      'orderId',
      e.stock_order_id,
      'returnId',
      e.stock_return_id,
      'sequence',
      e.sequence
    )
  ) AS data,
  to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS occurred_at,
  e.position
FROM
  domain_events e
WHERE
  e.brand_id = $1
  AND e.type = ANY ($2::TEXT[])
  AND (e.position, e.id) > ($3::bigint, $4::bigint)
  AND e.position < (
    SELECT
      LEAST(
        pg_current_xact_id_if_assigned()::text::bigint,
        COALESCE(
          (
            SELECT
              min(xip::text::bigint)
            FROM
              pg_snapshot_xip(s.snapshot) AS xip
            WHERE
              xip::text::bigint % 4294967296 NOT IN (
                SELECT
                  a.backend_xid::text::bigint
                FROM
                  pg_stat_activity a
                WHERE
                  a.backend_xid IS NOT NULL
                  AND a.datid IS DISTINCT FROM (
                    SELECT
                      d.oid
                    FROM
                      pg_database d
                    WHERE
                      d.datname = current_database()
                  )
                UNION ALL
                SELECT
                  p.transaction::text::bigint
                FROM
                  pg_prepared_xacts p
                WHERE
                  p.database <> current_database()
              )
          ),
          pg_snapshot_xmax(s.snapshot)::text::bigint
        )
      )
    FROM
      (
        SELECT
          pg_current_snapshot() AS snapshot
      ) AS s
  )
ORDER BY
  e.position,
  e.id
LIMIT
  $5
