import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** How long a key's answer is kept (contract §11). */
export const KEEP_HOURS = 24;

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' }
  | { kind: 'replay'; status: number; body: unknown };

/** The idempotency_keys table. */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Takes the key for this request in one statement, so concurrent requests with one key get
   * one claim between them on every instance. A row older than KEEP_HOURS is replaced; one left
   * in progress longer than `abandonAfterSeconds` (its instance stopped mid-request) is taken
   * over by the same request. Otherwise the existing row decides.
   */
  async claim(scope: string, key: string, requestHash: Buffer, abandonAfterSeconds: number): Promise<Claim> {
    const claimed: unknown[] = await this.db.query(
      `INSERT INTO idempotency_keys (scope, key, request_hash) VALUES ($1, $2, $3)
       ON CONFLICT (scope, key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, response_status = NULL, response_body = NULL,
              created_at = now(), locked_at = now()
        WHERE idempotency_keys.created_at <= now() - make_interval(hours => $4)
           OR (idempotency_keys.response_status IS NULL AND idempotency_keys.request_hash = EXCLUDED.request_hash
               AND idempotency_keys.locked_at <= now() - make_interval(secs => $5))
       RETURNING 1`,
      [scope, key, requestHash, KEEP_HOURS, abandonAfterSeconds],
    );
    if (claimed.length > 0) return { kind: 'claimed' };
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

  async complete(scope: string, key: string, status: number, body: unknown): Promise<void> {
    await this.db.query(
      'UPDATE idempotency_keys SET response_status = $3, response_body = $4::jsonb WHERE scope = $1 AND key = $2',
      [scope, key, status, JSON.stringify(body ?? null)],
    );
  }

  /** Forgets a claim whose request stored nothing: a retry with the key runs again. */
  async release(scope: string, key: string): Promise<void> {
    await this.db.query('DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2', [scope, key]);
  }

  async sweep(): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE created_at <= now() - make_interval(hours => $1)`, [
      KEEP_HOURS,
    ]);
  }
}
