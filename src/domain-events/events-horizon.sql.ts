/**
 * The readers' horizon (contract §16): the smallest transaction id that this statement's snapshot
 * saw running and that could have written events here, or the snapshot's xmax when there is none.
 *
 * An event's position is at least the id of the transaction that wrote it (DomainEventsSql). So an
 * event not yet visible belongs to a transaction that was running at the snapshot (an id in its
 * xip list) or that had no id then (it gets one ≥ xmax): once the transactions that can write
 * here are left out of neither, the events below the horizon are final, and reading them in
 * (position, id) order after a cursor skips none and repeats none.
 *
 * Transaction ids are the cluster's, and the snapshot's xmin is the oldest running transaction of
 * any database on the server: a forgotten `idle in transaction` session of another application
 * would hold every brand's feed. So an id in the xip list is passed over when it is known to be
 * another database's: a backend of another database (or of none) holds it as its `backend_xid`,
 * or it is a transaction prepared in another database. A transaction cannot write across
 * databases, and an id names one transaction for ever, so when that was seen does not matter.
 * Any id not so known holds the horizon: this database's writers and prepared transactions, and
 * an id whose transaction ended between the snapshot and the read of pg_stat_activity (it may
 * have been ours; the next read passes it). `backend_xid` and `datid` are shown to every role,
 * so no privilege is needed. The ids are compared by their low 32 bits, which name a running
 * transaction uniquely (running ids are within 2^31 of each other). The reader's own transaction,
 * which its snapshot leaves out of the list, holds it too, should it have written: a page read after
 * its own uncommitted events must not pass them.
 */
export const EVENTS_HORIZON = `(
  SELECT LEAST(pg_current_xact_id_if_assigned()::text::bigint, COALESCE(
           (SELECT min(xip::text::bigint) FROM pg_snapshot_xip(s.snapshot) AS xip
             WHERE xip::text::bigint % 4294967296 NOT IN (
                     SELECT a.backend_xid::text::bigint FROM pg_stat_activity a
                      WHERE a.backend_xid IS NOT NULL
                        AND a.datid IS DISTINCT FROM (SELECT d.oid FROM pg_database d WHERE d.datname = current_database())
                     UNION ALL
                     SELECT p.transaction::text::bigint FROM pg_prepared_xacts p WHERE p.database <> current_database())),
           pg_snapshot_xmax(s.snapshot)::text::bigint))
    FROM (SELECT pg_current_snapshot() AS snapshot) AS s)`;

/**
 * How long this database's oldest writer has held the horizon back, in seconds (0 when none
 * runs): `events_horizon_lag_seconds`. A session's `xact_start` is shown only to its own role and
 * to members of pg_read_all_stats, so another role's writer counts only with that grant.
 */
export const EVENTS_HORIZON_LAG = `
  SELECT COALESCE(EXTRACT(EPOCH FROM clock_timestamp() - min(t.started)), 0)::float8 AS seconds
    FROM (SELECT a.xact_start AS started FROM pg_stat_activity a
           WHERE a.datname = current_database() AND a.backend_xid IS NOT NULL AND a.pid <> pg_backend_pid()
          UNION ALL
          SELECT p.prepared FROM pg_prepared_xacts p WHERE p.database = current_database()) AS t`;
