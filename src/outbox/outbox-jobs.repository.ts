import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { changedRows } from '../database/returning';
import type { OutboxKind } from './outbox';

export type OutboxState = 'pending' | 'failed' | 'done';

const STATE_FILTER: Record<OutboxState, string> = {
  pending: 'done_at IS NULL AND failed_at IS NULL',
  failed: 'failed_at IS NOT NULL',
  done: 'done_at IS NOT NULL',
};

export interface OutboxJobView {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  lastError: string | null;
  runAfter: string;
  createdAt: string;
  doneAt: string | null;
  failedAt: string | null;
}

/** A job as a worker claimed it: the lease is the worker's until it finishes the job or the lease runs out. */
export interface ClaimedOutboxJob {
  id: string;
  kind: OutboxKind;
  payload: { orderId: number; status?: string };
  /** Counting this claim. */
  attempts: number;
  lastError: string | null;
  ageSeconds: number;
}

/** The worker's claim ($1 token, $2 lease seconds, $3 batch): due jobs no live lease holds. */
export const CLAIM_JOBS = `UPDATE outbox SET lock_token = $1, locked_until = now() + make_interval(secs => $2), attempts = attempts + 1
        WHERE id IN (SELECT id FROM outbox
                      WHERE done_at IS NULL AND failed_at IS NULL AND run_after <= now()
                        AND (locked_until IS NULL OR locked_until < now())
                      ORDER BY run_after, id LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING id, kind, payload, attempts, last_error, extract(epoch FROM now() - created_at)::float AS age_seconds`;

/**
 * The outbox table's statements: the lease protocol the worker runs jobs under (claim with
 * FOR UPDATE SKIP LOCKED, renew, finish, give up, retry later; each only by the lease's holder),
 * and the operations view.
 */
@Injectable()
export class OutboxJobs {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Up to `batch` due jobs no live lease holds, leased to `token` for `leaseSeconds`. */
  async claim(token: string, leaseSeconds: number, batch: number): Promise<ClaimedOutboxJob[]> {
    const rows = await changedRows<{
      id: string;
      kind: OutboxKind;
      payload: ClaimedOutboxJob['payload'];
      attempts: number;
      last_error: string | null;
      age_seconds: number;
    }>(this.db.manager, CLAIM_JOBS, [token, leaseSeconds, batch]);
    return rows.map((row) => ({
      id: String(row.id),
      kind: row.kind,
      payload: row.payload,
      attempts: row.attempts,
      lastError: row.last_error,
      ageSeconds: row.age_seconds,
    }));
  }

  /**
   * Extends the lease of the jobs still held under it; returns their ids. Held means the row still
   * carries the token: only a claim replaces it, under the row's lock, so a renewal that comes a
   * little late but before any other worker claimed the job keeps it rather than giving it up.
   */
  async renew(ids: string[], token: string, leaseSeconds: number): Promise<string[]> {
    const held = await changedRows<{ id: string }>(
      this.db.manager,
      `UPDATE outbox SET locked_until = now() + make_interval(secs => $3)
        WHERE id = ANY($1::bigint[]) AND lock_token = $2 AND done_at IS NULL AND failed_at IS NULL RETURNING id`,
      [ids, token, leaseSeconds],
    );
    return held.map((row) => String(row.id));
  }

  /** Done, in the transaction of the job's own effects; false when the lease was lost to another worker. */
  async finish(tx: EntityManager, id: string, token: string): Promise<boolean> {
    const done = await changedRows(
      tx,
      'UPDATE outbox SET done_at = now(), lock_token = NULL, locked_until = NULL WHERE id = $1 AND lock_token = $2 RETURNING id',
      [id, token],
    );
    return done.length > 0;
  }

  /** Given up after the retry window; false when the lease was lost. */
  async giveUp(tx: EntityManager, id: string, token: string, lastError: string): Promise<boolean> {
    const failed = await changedRows(
      tx,
      'UPDATE outbox SET failed_at = now(), last_error = $3, lock_token = NULL, locked_until = NULL WHERE id = $1 AND lock_token = $2 RETURNING id',
      [id, token, lastError],
    );
    return failed.length > 0;
  }

  /**
   * Done jobs older than `days` keep no error text nor a copied one (which may quote a buyer:
   * a carrier's answer, a refused recipient); the rest of a job names ids only. Returns how many changed.
   */
  async forgetDone(days: number): Promise<number> {
    const changed = await changedRows(
      this.db.manager,
      `UPDATE outbox SET last_error = NULL, payload = payload - 'lastError'
        WHERE done_at < now() - make_interval(days => $1) AND (last_error IS NOT NULL OR payload ? 'lastError')
        RETURNING id`,
      [days],
    );
    return changed.length;
  }

  /** Failed this time: due again after `delaySeconds`, the lease released. */
  async retryLater(id: string, token: string, delaySeconds: number, lastError: string): Promise<void> {
    await this.db.query(
      `UPDATE outbox SET run_after = now() + make_interval(secs => $3), last_error = $4, lock_token = NULL, locked_until = NULL
        WHERE id = $1 AND lock_token = $2`,
      [id, token, delaySeconds, lastError],
    );
  }

  /**
   * Pending and failed jobs and the oldest pending one's age in seconds (0 when none), for the
   * metrics; each part through its partial index, never the done jobs.
   */
  async backlog(): Promise<{ pending: number; failed: number; oldestPendingAgeSeconds: number }> {
    const rows: Array<{ pending: number; failed: number; oldest: number }> = await this.db.query(
      `WITH pending AS (SELECT count(*)::int AS n, min(created_at) AS oldest FROM outbox
                         WHERE done_at IS NULL AND failed_at IS NULL)
       SELECT pending.n AS pending, (SELECT count(*)::int FROM outbox WHERE failed_at IS NOT NULL) AS failed,
              COALESCE(extract(epoch FROM now() - pending.oldest), 0)::float8 AS oldest
         FROM pending`,
    );
    return { pending: rows[0].pending, failed: rows[0].failed, oldestPendingAgeSeconds: rows[0].oldest };
  }

  async list(
    state: OutboxState,
    limit: number,
  ): Promise<{ counts: { pending: number; failed: number }; items: OutboxJobView[] }> {
    const rows: Array<{
      id: string;
      kind: string;
      payload: Record<string, unknown>;
      attempts: number;
      last_error: string | null;
      run_after: Date;
      created_at: Date;
      done_at: Date | null;
      failed_at: Date | null;
    }> = await this.db.query(
      `SELECT id, kind, payload, attempts, last_error, run_after, created_at, done_at, failed_at
         FROM outbox WHERE ${STATE_FILTER[state]} ORDER BY id DESC LIMIT $1`,
      [limit],
    );
    const counts: Array<{ pending: number; failed: number }> = await this.db.query(
      `SELECT count(*) FILTER (WHERE done_at IS NULL AND failed_at IS NULL)::int AS pending,
              count(*) FILTER (WHERE failed_at IS NOT NULL)::int AS failed FROM outbox`,
    );
    return {
      counts: counts[0],
      items: rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind,
        payload: r.payload,
        attempts: r.attempts,
        lastError: r.last_error,
        runAfter: r.run_after.toISOString(),
        createdAt: r.created_at.toISOString(),
        doneAt: r.done_at?.toISOString() ?? null,
        failedAt: r.failed_at?.toISOString() ?? null,
      })),
    };
  }
}
