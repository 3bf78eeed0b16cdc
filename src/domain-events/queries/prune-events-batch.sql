-- A batch of the pruning: the oldest events past the retention, their subjects’ numbers kept
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
-- Parameters:
--   $1 lockKey, $2 retentionDays
WITH
  turn AS (
    SELECT
      pg_try_advisory_xact_lock($1) AS mine
  ),
  batch AS (
    SELECT
      e.id
    FROM
      domain_events e
    WHERE
      e.occurred_at < now() - make_interval(days => $2)
      AND (
        SELECT
          mine
        FROM
          turn
      )
    ORDER BY
      e.occurred_at
    LIMIT
      2000
  ),
  removed AS (
    DELETE FROM domain_events d USING batch b
    WHERE
      d.id = b.id
    RETURNING
      d.subject,
      d.subject_id,
      d.sequence,
      d.position
  ),
  floors AS (
    INSERT INTO
      domain_event_floors AS f (subject, subject_id, sequence, position)
    SELECT
      subject,
      subject_id,
      max(sequence),
      max(position)
    FROM
      removed
    WHERE
      subject <> 'size'
    GROUP BY
      subject,
      subject_id
    ON CONFLICT (subject, subject_id) DO UPDATE
    SET
      sequence = GREATEST(f.sequence, EXCLUDED.sequence),
      position = GREATEST(f.position, EXCLUDED.position)
  )
SELECT
  (
    SELECT
      mine
    FROM
      turn
  ) AS mine,
  (
    SELECT
      count(*)
    FROM
      removed
  )::int AS removed
