import { Injectable } from '@nestjs/common';
import { changedRows } from '../database/returning';
import type { Tx } from '../database/transactions';

export interface LiveReset {
  id: string;
  user_id: number;
  email: string;
}

/** The password_resets table. A reset is live until used, replaced or 30 minutes old. */
@Injectable()
export class PasswordResetsRepository {
  /** The reset a request's mail job made, if an earlier run of the job made one. */
  async findByRequest(tx: Tx, requestId: string): Promise<{ id: string } | null> {
    const rows: Array<{ id: string }> = await tx.query(`SELECT id FROM password_resets WHERE request_id = $1`, [
      requestId,
    ]);
    return rows[0] ?? null;
  }

  /** How many resets the account was given in the last hour: its mail budget (contract §19). */
  async countLastHour(tx: Tx, userId: number): Promise<number> {
    const rows: Array<{ n: number }> = await tx.query(
      `SELECT count(*)::int AS n FROM password_resets WHERE user_id = $1 AND created_at > now() - interval '1 hour'`,
      [userId],
    );
    return rows[0].n;
  }

  /** A newer request replaces the live ones: their links die. */
  async endLiveOf(tx: Tx, userId: number): Promise<void> {
    await tx.query(`UPDATE password_resets SET ended_at = now() WHERE user_id = $1 AND ended_at IS NULL`, [userId]);
  }

  async insert(tx: Tx, reset: { userId: number; requestId: string; hash: Buffer; ttlSeconds: number }): Promise<Date> {
    const rows: Array<{ expires_at: Date }> = await tx.query(
      `INSERT INTO password_resets (user_id, request_id, token_hash, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING expires_at`,
      [reset.userId, reset.requestId, reset.hash, reset.ttlSeconds],
    );
    return rows[0].expires_at;
  }

  /**
   * A new token for a reset still live (a retried mail: the earlier link, perhaps never
   * delivered, dies); the account's e-mail and the expiry, or null when it is no longer live.
   */
  async setToken(tx: Tx, resetId: string, hash: Buffer): Promise<{ email: string; expires_at: Date } | null> {
    const rows = await changedRows<{ email: string; expires_at: Date }>(
      tx,
      `UPDATE password_resets r SET token_hash = $2
         FROM users u
        WHERE r.id = $1 AND u.id = r.user_id AND u.active AND r.ended_at IS NULL AND r.expires_at > now()
        RETURNING u.email, r.expires_at`,
      [resetId, hash],
    );
    return rows[0] ?? null;
  }

  /** The live reset of a token's digest, locked until the transaction ends, with its account. */
  async lockLive(tx: Tx, hash: Buffer): Promise<LiveReset | null> {
    const rows: LiveReset[] = await tx.query(
      `SELECT r.id, r.user_id, u.email FROM password_resets r JOIN users u ON u.id = r.user_id
        WHERE r.token_hash = $1 AND r.ended_at IS NULL AND r.expires_at > now() AND u.active
        FOR UPDATE OF r`,
      [hash],
    );
    return rows[0] ?? null;
  }

  async end(tx: Tx, resetId: string): Promise<void> {
    await tx.query(`UPDATE password_resets SET ended_at = now() WHERE id = $1`, [resetId]);
  }
}
