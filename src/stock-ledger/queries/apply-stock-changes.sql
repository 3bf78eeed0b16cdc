-- Stock changes of one cause, their ledger rows and stock events, with what the subscribers write
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 sizeIds, $2 deltas, $3 brandId, $4 actorKind, $5 actorId, $6 movementSizeIds
--   $7 movementDeltas, $8 reasons, $9 orderIds, $10 acceptanceIds, $11 notes, $12 causeReason
--   $13 causeOrderId, $14 causeReturnId
WITH
  locked AS (
    SELECT
      id,
      stock
    FROM
      product_sizes
    WHERE
      id = ANY ($1::INT[])
    ORDER BY
      id
    FOR NO KEY UPDATE
  ),
  updated AS (
    UPDATE product_sizes s
    SET
      stock = s.stock + d.delta,
      stock_events = s.stock_events + (d.delta <> 0)::int,
      stock_event_position = CASE
        WHEN d.delta <> 0 THEN GREATEST(domain_event_position (), s.stock_event_position)
        ELSE s.stock_event_position
      END
    FROM
      locked AS l
      JOIN unnest($1::INT[], $2::INT[]) AS d (id, delta) ON d.id = l.id
    WHERE
      s.id = l.id
      AND s.id = ANY (
        ARRAY(
          SELECT
            id
          FROM
            locked
        )
      )
      AND s.brand_id = $3
    RETURNING
      s.id,
      s.stock,
      s.product_id,
      s.name,
      s.stock_events,
      s.stock_event_position,
      d.delta
  ),
  moved AS (
    INSERT INTO
      stock_movements (
        brand_id,
        size_id,
        delta,
        reason,
        order_id,
        acceptance_id,
        note,
        actor_kind,
        actor_id
      )
    SELECT
      $3,
      m.size_id,
      m.delta,
      m.reason,
      m.order_id,
      m.acceptance_id,
      m.note,
      $4,
      $5
    FROM
      unnest($6::INT[], $7::INT[], $8::TEXT[], $9::INT[], $10::INT[], $11::TEXT[]) AS m (size_id, delta, reason, order_id, acceptance_id, note)
  ),
  domain_event AS (
    INSERT INTO
      domain_events AS e (
        brand_id,
        subject,
        subject_id,
        type,
        data,
        sequence,
        position,
        stock_product_id,
        stock_article,
        stock_storefront_article,
        stock_size,
        stock_delta,
        stock_after,
        stock_reason,
        stock_order_id,
        stock_return_id
      )
    SELECT
      *
    FROM
      (
        SELECT
          ($3)::int,
          'size'::text,
          (u.id)::int,
          ('stock.changed')::text,
          NULL::jsonb,
          (u.stock_events)::int,
          (GREATEST(domain_event_position (), u.stock_event_position))::bigint,
          (u.product_id)::int,
          (pa.article)::text,
          (pa.storefront_article)::text,
          (u.name)::text,
          (u.delta)::int,
          (u.stock)::int,
          ($12)::text,
          ($13)::int,
          ($14)::int
        FROM
          updated AS u
          JOIN (
            SELECT
              id,
              article,
              storefront_article
            FROM
              products
            WHERE
              id = ANY (
                ARRAY(
                  SELECT
                    product_id
                  FROM
                    updated
                )
              )
          ) AS pa ON pa.id = u.product_id
        WHERE
          u.delta <> 0
      ) AS ev (
        brand_id,
        subject,
        subject_id,
        type,
        data,
        sequence,
        position,
        stock_product_id,
        stock_article,
        stock_storefront_article,
        stock_size,
        stock_delta,
        stock_after,
        stock_reason,
        stock_order_id,
        stock_return_id
      )
    RETURNING
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
      e.occurred_at
  ),
  wh_targets AS (
    SELECT
      e.id AS event_id,
      w.id AS endpoint_id
    FROM
      domain_event e
      JOIN webhook_endpoints w ON w.brand_id = e.brand_id
      AND w.enabled
      AND (
        e.type = ANY (w.event_types)
        OR '*' = ANY (w.event_types)
      )
  ),
  wh_pending AS (
    SELECT
      e.id AS event_id,
      'msg_' || replace(gen_random_uuid()::text, '-', '') AS msg_id,
      e.brand_id,
      e.type,
      jsonb_build_object(
        'type',
        e.type,
        'timestamp',
        to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'data',
        e.data
      ) AS payload
    FROM
      domain_event e
    WHERE
      e.id IN (
        SELECT
          event_id
        FROM
          wh_targets
      )
  ),
  wh_message AS (
    INSERT INTO
      webhook_messages (msg_id, brand_id, event_type, payload)
    SELECT
      p.msg_id,
      p.brand_id,
      p.type,
      p.payload
    FROM
      wh_pending p
    ORDER BY
      p.event_id
    RETURNING
      id,
      msg_id
  ),
  wh_deliveries AS (
    INSERT INTO
      webhook_deliveries (message_id, endpoint_id)
    SELECT
      m.id,
      t.endpoint_id
    FROM
      wh_message m
      JOIN wh_pending p ON p.msg_id = m.msg_id
      JOIN wh_targets t ON t.event_id = p.event_id
    ORDER BY
      m.id,
      t.endpoint_id
    RETURNING
      id
  )
SELECT
  id,
  stock,
  (
    (
      SELECT
        count(*)
      FROM
        wh_deliveries
    )::int
  ) AS written
FROM
  updated
