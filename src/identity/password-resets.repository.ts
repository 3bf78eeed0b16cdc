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
  /** How many resets the account asked for in the last hour: its mail budget (contract §19). */
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

  async insert(tx: Tx, userId: number, ttlSeconds: number): Promise<string> {
    const rows: Array<{ id: string }> = await tx.query(
      `INSERT INTO password_resets (user_id, expires_at) VALUES ($1, now() + make_interval(secs => $2)) RETURNING id`,
      [userId, ttlSeconds],
    );
    return rows[0].id;
  }

  /**
   * Gives a live reset the token its mail carries (only the digest is stored); the account's
   * e-mail and the expiry, or null when the reset is no longer live or the account is off.
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
