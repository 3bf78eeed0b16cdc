-- How long this database’s oldest writer has held the horizon
-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.
SELECT
  COALESCE(
    EXTRACT(
      EPOCH
      FROM
        clock_timestamp() - min(t.started)
    ),
    0
  )::float8 AS seconds
FROM
  (
    SELECT
      a.xact_start AS started
    FROM
      pg_stat_activity a
    WHERE
      a.datname = current_database()
      AND a.backend_xid IS NOT NULL
      AND a.pid <> pg_backend_pid()
    UNION ALL
    SELECT
      p.prepared
    FROM
      pg_prepared_xacts p
    WHERE
      p.database = current_database()
  ) AS t
