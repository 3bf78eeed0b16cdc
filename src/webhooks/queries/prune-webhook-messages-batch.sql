-- A batch of the webhook log’s pruning: the oldest settled messages past the retention
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 retentionDays
WITH
  removed AS (
    DELETE FROM webhook_messages
    WHERE
      id IN (
        SELECT
          m.id
        FROM
          webhook_messages m
        WHERE
          m.created_at < now() - make_interval(days => $1)
          AND NOT EXISTS (
            SELECT
              1
            FROM
              webhook_deliveries d
            WHERE
              d.message_id = m.id
              AND d.status = 'pending'
          )
        ORDER BY
          m.created_at
        LIMIT
          2000
        FOR UPDATE
          SKIP LOCKED
      )
    RETURNING
      1
  )
SELECT
  count(*)::int AS removed
FROM
  removed
