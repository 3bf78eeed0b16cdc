-- The delivery worker’s claim: due deliveries, a bounded number an endpoint, leased
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 token, $2 limit, $3 perEndpoint, $4 leaseSeconds, $5 answeredIds
WITH
  busy AS MATERIALIZED (
    SELECT
      endpoint_id,
      count(*)::int AS n
    FROM
      webhook_deliveries
    WHERE
      lock_token IS NOT NULL
      AND locked_until > now()
      AND id <> ALL ($5::BIGINT[])
    GROUP BY
      endpoint_id
  ),
  due AS (
    SELECT
      d.id,
      d.endpoint_id,
      d.next_attempt_at,
      COALESCE(b.n, 0) AS in_flight
    FROM
      webhook_deliveries d
      JOIN webhook_endpoints w ON w.id = d.endpoint_id
      AND w.enabled
      LEFT JOIN busy b ON b.endpoint_id = d.endpoint_id
    WHERE
      d.status = 'pending'
      AND d.next_attempt_at <= now()
      AND (
        d.locked_until IS NULL
        OR d.locked_until <= now()
      )
      AND COALESCE(b.n, 0) < $3
    ORDER BY
      d.next_attempt_at,
      d.id
    LIMIT
      $2 * 4
  ),
  picked AS (
    SELECT
      id
    FROM
      (
        SELECT
          id,
          next_attempt_at,
          in_flight,
          row_number() OVER (
            PARTITION BY
              endpoint_id
            ORDER BY
              next_attempt_at,
              id
          ) AS rank
        FROM
          due
      ) ranked
    WHERE
      rank + in_flight <= $3
    ORDER BY
      next_attempt_at,
      id
    LIMIT
      $2
  ),
  claimed AS (
    UPDATE webhook_deliveries d
    SET
      lock_token = $1,
      locked_until = now() + make_interval(secs => $4)
    FROM
      (
        SELECT
          id
        FROM
          webhook_deliveries
        WHERE
          id IN (
            SELECT
              id
            FROM
              picked
          )
          AND status = 'pending'
          AND (
            locked_until IS NULL
            OR locked_until <= now()
          )
        FOR UPDATE
          SKIP LOCKED
      ) AS free
    WHERE
      d.id = free.id
    RETURNING
      d.id,
      d.attempts,
      d.endpoint_id,
      d.message_id
  )
SELECT
  c.id,
  c.attempts,
  c.endpoint_id,
  w.brand_id,
  w.url,
  w.secret_sealed,
  w.previous_secret_sealed,
  w.previous_secret_expires_at,
  w.failing_since,
  m.msg_id,
  m.payload
FROM
  claimed c
  JOIN webhook_endpoints w ON w.id = c.endpoint_id
  JOIN webhook_messages m ON m.id = c.message_id
ORDER BY
  c.id
