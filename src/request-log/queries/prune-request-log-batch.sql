-- A batch of the request log’s pruning: the oldest failures and counts past 30 days
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 lockKey, $2 days
WITH
  turn AS (
    SELECT
      pg_try_advisory_xact_lock($1) AS mine
  ),
  failures AS (
    DELETE FROM request_failures
    WHERE
      id IN (
        SELECT
          id
        FROM
          request_failures
        WHERE
          at < now() - make_interval(days => $2)
          AND (
            SELECT
              mine
            FROM
              turn
          )
        ORDER BY
          at
        LIMIT
          2000
      )
    RETURNING
      1
  ),
  counts AS (
    DELETE FROM request_counts
    WHERE
      (key_id, MINUTE, method, route, status) IN (
        SELECT
          key_id,
          MINUTE,
          method,
          route,
          status
        FROM
          request_counts
        WHERE
          MINUTE < now() - make_interval(days => $2)
          AND (
            SELECT
              mine
            FROM
              turn
          )
        ORDER BY
          MINUTE
        LIMIT
          2000
      )
    RETURNING
      1
  )
SELECT
  mine,
  (
    SELECT
      count(*)
    FROM
      failures
  )::int AS failures,
  (
    SELECT
      count(*)
    FROM
      counts
  )::int AS counts
FROM
  turn
