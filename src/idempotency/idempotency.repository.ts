import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';

/** How long a key's answer is kept (contract §11). */
export const KEEP_HOURS = 24;

export type Claim =
  /** This request runs; `effects` are what an earlier, abandoned run of it committed. */
  | { kind: 'claimed'; claimId: string; effects: Buffer[] }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' }
  | { kind: 'replay'; status: number; body: unknown };

const EXPIRED = `idempotency_keys.created_at <= now() - make_interval(hours => $4)`;

/** The idempotency_keys table. */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Takes the key for this request in one statement, so concurrent requests with one key get
   * one claim between them on every instance. A row older than KEEP_HOURS starts over; one left
   * unanswered longer than `abandonAfterSeconds` (its instance stopped mid-request) is taken over
   * by the same request under a new claim id, keeping what the abandoned run committed.
   * Otherwise the existing row decides.
   */
  async claim(scope: string, key: string, requestHash: Buffer, abandonAfterSeconds: number): Promise<Claim> {
    const claimId = randomUUID();
    const claimed: Array<{ effects: Buffer[] }> = await this.db.query(
      `INSERT INTO idempotency_keys (scope, key, request_hash, claim_id) VALUES ($1, $2, $3, $6)
       ON CONFLICT (scope, key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, claim_id = EXCLUDED.claim_id, locked_at = now(),
              response_status = NULL, response_body = NULL,
              effects = CASE WHEN ${EXPIRED} THEN '{}' ELSE idempotency_keys.effects END,
              created_at = CASE WHEN ${EXPIRED} THEN now() ELSE idempotency_keys.created_at END
        WHERE ${EXPIRED}
           OR (idempotency_keys.response_status IS NULL AND idempotency_keys.request_hash = EXCLUDED.request_hash
               AND idempotency_keys.locked_at <= now() - make_interval(secs => $5))
       RETURNING effects`,
      [scope, key, requestHash, KEEP_HOURS, abandonAfterSeconds, claimId],
    );
    if (claimed.length > 0) return { kind: 'claimed', claimId, effects: claimed[0].effects };
    const rows: Array<{ request_hash: Buffer; response_status: number | null; response_body: unknown }> =
      await this.db.query(
        'SELECT request_hash, response_status, response_body FROM idempotency_keys WHERE scope = $1 AND key = $2',
        [scope, key],
      );
    const row = rows[0];
    // Swept between the two statements: this request may run.
    if (!row) return this.claim(scope, key, requestHash, abandonAfterSeconds);
    if (!row.request_hash.equals(requestHash)) return { kind: 'mismatch' };
    if (row.response_status === null) return { kind: 'in_progress' };
    return { kind: 'replay', status: row.response_status, body: row.response_body };
  }

  /**
   * In the transaction of a change the claimed request makes: adds `effect` to what it committed.
   * A claim taken over meanwhile (or already answered) refuses it, and the change rolls back.
   */
  async record(tx: EntityManager, scope: string, key: string, claimId: string, effect: Buffer): Promise<void> {
    // A SELECT around the UPDATE: TypeORM answers an UPDATE with [rows, count], a SELECT with its rows.
    const [row]: Array<{ recorded: number }> = await tx.query(
      `WITH recorded AS (
         UPDATE idempotency_keys SET effects = array_append(effects, $4)
          WHERE scope = $1 AND key = $2 AND claim_id = $3 AND response_status IS NULL
         RETURNING 1)
       SELECT count(*)::int AS recorded FROM recorded`,
      [scope, key, claimId, effect],
    );
    if (row?.recorded !== 1) throw AppError.conflict(ErrorText.idempotencyKeyInProgress);
  }

  /** Stores the answer, unless the claim was taken over meanwhile. */
  async complete(scope: string, key: string, claimId: string, status: number, body: unknown): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET response_status = $4, response_body = $5::jsonb
        WHERE scope = $1 AND key = $2 AND claim_id = $3`,
      [scope, key, claimId, status, JSON.stringify(body ?? null)],
    );
  }

  /**
   * For a request that stored no answer: a claim that committed nothing is forgotten (a retry
   * runs anew); one that committed something is left for a retry to take over at once and finish.
   */
  async release(scope: string, key: string, claimId: string): Promise<void> {
    await this.db.query(
      `WITH forgotten AS (
         DELETE FROM idempotency_keys
          WHERE scope = $1 AND key = $2 AND claim_id = $3 AND cardinality(effects) = 0
         RETURNING 1)
       UPDATE idempotency_keys SET locked_at = '-infinity'
        WHERE scope = $1 AND key = $2 AND claim_id = $3 AND NOT EXISTS (SELECT 1 FROM forgotten)`,
      [scope, key, claimId],
    );
  }

  async sweep(): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE created_at <= now() - make_interval(hours => $1)`, [
      KEEP_HOURS,
    ]);
  }
}
