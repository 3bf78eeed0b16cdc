import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryFailedError } from 'typeorm';
import { PRUNE_BATCH } from '../common/runtime/batched-pruning';
import { tenantOrderSql, tenantRowsSql } from '../database/tenant-rows.sql';
import type { FailedRequest } from './failed-request';
import type { TallyRow } from './request-tally';

export interface FailureRow {
  id: string;
  at: Date;
  method: string;
  route: string | null;
  path: string;
  status: number;
  error: string | null;
  request_id: string;
  idempotency_key: string | null;
  duration_ms: number;
  ip: string;
  count: number;
}

export interface ErrorGroupRow {
  status: number;
  error: string | null;
  count: number;
  last_at: Date;
}

/**
 * A write PostgreSQL refused for what it holds (a data exception or a constraint: SQLSTATE class
 * 22 or 23), which it would refuse again, unlike a connection lost or a server away.
 */
export function refusedForItsContent(error: unknown): boolean {
  const code = error instanceof QueryFailedError ? (error.driverError as { code?: unknown }).code : undefined;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

/**
 * One row per fold key (a 429's key, minute and place): one statement must not upsert a row
 * twice, and a flush that could not write puts its rows back before those queued since, which
 * may name the same place.
 */
function mergedByFold(failures: readonly FailedRequest[]): readonly FailedRequest[] {
  if (!failures.some((f) => f.foldMinute !== null)) return failures;
  const merged: FailedRequest[] = [];
  const byFold = new Map<string, FailedRequest>();
  for (const f of failures) {
    if (f.foldMinute === null) {
      merged.push(f);
      continue;
    }
    const fold = `${f.keyId}:${f.foldMinute.getTime()}:${f.foldSlot}`;
    const first = byFold.get(fold);
    if (first) first.count += f.count;
    else {
      const copy = { ...f };
      byFold.set(fold, copy);
      merged.push(copy);
    }
  }
  return merged;
}

// Whichever instance takes it prunes; the others skip that round.
export const PRUNE_LOCK_KEY = 1_877_126_031;

/** RequestLogRepository.pruneBatch's statement ($1 lock key, $2 days): PRUNE_BATCH rows of each table at most. */
export const PRUNE_BATCH_SQL = `WITH turn AS (SELECT pg_try_advisory_xact_lock($1) AS mine),
     failures AS (DELETE FROM request_failures WHERE id IN (
                    SELECT id FROM request_failures
                     WHERE at < now() - make_interval(days => $2) AND (SELECT mine FROM turn)
                     ORDER BY at LIMIT ${PRUNE_BATCH})
                  RETURNING 1),
     counts AS (DELETE FROM request_counts WHERE (key_id, minute, method, route, status) IN (
                  SELECT key_id, minute, method, route, status FROM request_counts
                   WHERE minute < now() - make_interval(days => $2) AND (SELECT mine FROM turn)
                   ORDER BY minute LIMIT ${PRUNE_BATCH})
                RETURNING 1)
SELECT mine, (SELECT count(*) FROM failures)::int AS failures, (SELECT count(*) FROM counts)::int AS counts FROM turn`;

/** The request_counts and request_failures tables. */
@Injectable()
export class RequestLogRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Adds counts to the current minute's rows and appends failures, in one statement: both are
   * written or neither is. Counts arrive in one fixed order (RequestTally.take), so instances
   * adding to the same rows at once lock them in the same order.
   */
  async write(counts: readonly TallyRow[], someFailures: readonly FailedRequest[]): Promise<void> {
    const failures = mergedByFold(someFailures);
    await this.db.query(
      `WITH counted AS (
         INSERT INTO request_counts (key_id, minute, method, route, status, count)
         SELECT c.key_id, date_trunc('minute', now()), c.method, c.route, c.status, c.count
           FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[])
                AS c(key_id, method, route, status, count)
         ON CONFLICT (key_id, minute, method, route, status)
         DO UPDATE SET count = request_counts.count + EXCLUDED.count
         RETURNING 1
       ), failed AS (
         INSERT INTO request_failures (key_id, at, method, route, path, status, error, request_id,
                                       idempotency_key, duration_ms, ip, count, fold_minute, fold_slot)
         SELECT * FROM unnest($6::int[], $7::timestamptz[], $8::text[], $9::text[], $10::text[], $11::int[],
                              $12::text[], $13::text[], $14::text[], $15::real[], $16::text[], $17::int[],
                              $18::timestamptz[], $19::int[])
         ON CONFLICT (key_id, fold_minute, fold_slot) WHERE fold_minute IS NOT NULL
         DO UPDATE SET count = request_failures.count + EXCLUDED.count
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM counted) AS counted, (SELECT count(*) FROM failed) AS failed`,
      [
        counts.map((c) => c.keyId),
        counts.map((c) => c.method),
        counts.map((c) => c.route),
        counts.map((c) => c.status),
        counts.map((c) => c.count),
        failures.map((f) => f.keyId),
        failures.map((f) => f.at),
        failures.map((f) => f.method),
        failures.map((f) => f.route),
        failures.map((f) => f.path),
        failures.map((f) => f.status),
        failures.map((f) => f.error),
        failures.map((f) => f.requestId),
        failures.map((f) => f.idempotencyKey),
        failures.map((f) => f.durationMs),
        failures.map((f) => f.ip),
        failures.map((f) => f.count),
        failures.map((f) => f.foldMinute),
        failures.map((f) => f.foldSlot),
      ],
    );
  }

  /** A key's failures, newest first, after the failure `beforeId` when given. */
  failures(keyId: number, limit: number, beforeId: number | undefined): Promise<FailureRow[]> {
    const columns = `id, at, method, route, path, status, error, request_id, idempotency_key, duration_ms, ip, count`;
    // The key's rows only, whatever other keys hold (tenantRowsSql).
    const keyRows = tenantRowsSql('key_id', '$1');
    if (beforeId === undefined) {
      return this.db.query(
        `SELECT ${columns} FROM request_failures WHERE ${keyRows}
          ORDER BY ${tenantOrderSql('key_id')}, at DESC, id DESC LIMIT $2`,
        [keyId, limit],
      );
    }
    return this.db.query(
      `SELECT ${columns} FROM request_failures f
        WHERE ${keyRows}
          AND (f.at, f.id) < (SELECT b.at, b.id FROM request_failures b WHERE b.id = $3 AND b.key_id = $1)
        ORDER BY ${tenantOrderSql('key_id')}, f.at DESC, f.id DESC LIMIT $2`,
      [keyId, limit, beforeId],
    );
  }

  /** A key's requests of the last 24 hours by status. */
  countsByStatus(keyId: number): Promise<Array<{ status: number; count: number }>> {
    return this.db.query(
      `SELECT status, sum(count)::int AS count FROM request_counts
        WHERE key_id = $1 AND minute > now() - interval '24 hours'
        GROUP BY status ORDER BY status`,
      [keyId],
    );
  }

  /** A key's failures of the last 24 hours grouped by status and text, most frequent first. */
  topErrors(keyId: number, limit: number): Promise<ErrorGroupRow[]> {
    return this.db.query(
      `SELECT status, error, sum(count)::int AS count, max(at) AS last_at FROM request_failures
        WHERE key_id = $1 AND at > now() - interval '24 hours'
        GROUP BY status, error ORDER BY sum(count) DESC, max(at) DESC, status, error LIMIT $2`,
      [keyId, limit],
    );
  }

  /**
   * One batch of the pruning: at most PRUNE_BATCH failures and PRUNE_BATCH counts older than
   * `days`, the oldest first by their time's index, by one instance at a time (mine false: another had it).
   */
  async pruneBatch(days: number): Promise<{ mine: boolean; failures: number; counts: number }> {
    const rows: Array<{ mine: boolean; failures: number; counts: number }> = await this.db.query(PRUNE_BATCH_SQL, [
      PRUNE_LOCK_KEY,
      days,
    ]);
    return rows[0];
  }
}
