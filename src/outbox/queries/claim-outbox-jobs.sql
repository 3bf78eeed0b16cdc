-- The outbox worker’s claim: due jobs no live lease holds, leased
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 token, $2 leaseSeconds, $3 batch
UPDATE outbox
SET
  lock_token = $1,
  locked_until = now() + make_interval(secs => $2),
  attempts = attempts + 1
WHERE
  id IN (
    SELECT
      id
    FROM
      outbox
    WHERE
      done_at IS NULL
      AND failed_at IS NULL
      AND run_after <= now()
      AND (
        locked_until IS NULL
        OR locked_until < now()
      )
    ORDER BY
      run_after,
      id
    LIMIT
      $3
    FOR UPDATE
      SKIP LOCKED
  )
RETURNING
  id,
  kind,
  payload,
  attempts,
  last_error,
  extract(
    epoch
    FROM
      now() - created_at
  )::float AS age_seconds
