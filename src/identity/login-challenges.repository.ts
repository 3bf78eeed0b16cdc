import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { changedRows } from '../database/returning';
import type { Tx } from '../database/transactions';

export const LOGIN_CHALLENGE_ANSWERS = 5;

export interface LiveChallenge {
  user_id: number;
  passkey_challenge: string | null;
}

/** The login_challenges table: the second step of a sign-in. */
@Injectable()
export class LoginChallengesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(hash: Buffer, userId: number, ttlSeconds: number): Promise<void> {
    // Ended and expired challenges are of no use to anyone: each new one clears the account's.
    await this.db.query(
      `DELETE FROM login_challenges WHERE user_id = $1 AND (ended_at IS NOT NULL OR expires_at < now())`,
      [userId],
    );
    await this.db.query(
      `INSERT INTO login_challenges (token_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
      [hash, userId, ttlSeconds],
    );
  }

  async findLive(hash: Buffer): Promise<LiveChallenge | null> {
    const rows: LiveChallenge[] = await this.db.query(
      `SELECT user_id, passkey_challenge FROM login_challenges
        WHERE token_hash = $1 AND ended_at IS NULL AND expires_at > now() AND failures < $2`,
      [hash, LOGIN_CHALLENGE_ANSWERS],
    );
    return rows[0] ?? null;
  }

  async setPasskeyChallenge(hash: Buffer, challenge: string): Promise<void> {
    await this.db.query('UPDATE login_challenges SET passkey_challenge = $2 WHERE token_hash = $1', [hash, challenge]);
  }

  /**
   * Takes one of the challenge's five answers before the answer is checked, and the passkey
   * challenge with it (each answers once): parallel answers cannot get past the count, and a
   * wrong one needs nothing more. Null when the challenge is dead.
   */
  async takeAnswer(hash: Buffer): Promise<LiveChallenge | null> {
    const rows = await changedRows<LiveChallenge>(
      this.db.manager,
      `UPDATE login_challenges c SET failures = c.failures + 1, passkey_challenge = NULL
         FROM (SELECT token_hash, passkey_challenge FROM login_challenges WHERE token_hash = $1 FOR UPDATE) before
        WHERE c.token_hash = before.token_hash
          AND c.ended_at IS NULL AND c.expires_at > now() AND c.failures < $2
       RETURNING c.user_id, before.passkey_challenge`,
      [hash, LOGIN_CHALLENGE_ANSWERS],
    );
    return rows[0] ?? null;
  }

  /** A new password ends the second steps the old one opened, as it ends the sessions. */
  async endAllOf(tx: Tx, userId: number): Promise<void> {
    await tx.query('UPDATE login_challenges SET ended_at = now() WHERE user_id = $1 AND ended_at IS NULL', [userId]);
  }

  /** The right answer ends it; false when another request ended it first (one sign-in a challenge). */
  async end(hash: Buffer): Promise<boolean> {
    const rows = await changedRows(
      this.db.manager,
      `UPDATE login_challenges SET ended_at = now()
        WHERE token_hash = $1 AND ended_at IS NULL AND expires_at > now()
       RETURNING user_id`,
      [hash],
    );
    return rows.length > 0;
  }
}
