-- A return’s event, with what its subscribers write
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 returnId, $2 type
WITH
  domain_event AS (
    INSERT INTO
      domain_events AS e (brand_id, subject, subject_id, type, data, sequence, position)
    SELECT
      *
    FROM
      (
        SELECT
          (r.brand_id)::int,
          'return'::text,
          (r.id)::int,
          ($2)::text,
          jsonb_build_object(
            'returnId',
            r.id,
            'returnNumber',
            r.return_number,
            'orderId',
            r.order_id,
            'externalReturnId',
            r.external_return_id,
            'origin',
            r.origin,
            'status',
            r.status,
            'refundStatus',
            r.refund_status,
            'sequence',
            (COALESCE(GREATEST(last.sequence, pruned.sequence), 0) + 1)::int
          ),
          (COALESCE(GREATEST(last.sequence, pruned.sequence), 0) + 1)::int,
          (GREATEST(domain_event_position (), last.position, pruned.position))::bigint
        FROM
          (
            SELECT
              *
            FROM
              returns
            WHERE
              id = $1
          ) AS r
          LEFT JOIN LATERAL (
            SELECT
              e.sequence,
              e.position
            FROM
              domain_events e
            WHERE
              e.subject = 'return'
              AND e.subject_id = (r.id)
            ORDER BY
              e.sequence DESC
            LIMIT
              1
          ) AS last ON TRUE
          LEFT JOIN domain_event_floors AS pruned ON pruned.subject = 'return'
          AND pruned.subject_id = (r.id)
      ) AS ev (brand_id, subject, subject_id, type, data, sequence, position)
    ORDER BY
      ev.subject,
      ev.subject_id
    RETURNING
      e.id,
      e.brand_id,
      e.type,
      e.data AS data,
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
  (
    (
      SELECT
        count(*)
      FROM
        wh_deliveries
    )::int
  ) AS written
