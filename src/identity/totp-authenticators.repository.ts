import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { changedRows } from '../database/returning';
import type { Tx } from '../database/transactions';

export interface TotpRow {
  secret_sealed: Buffer;
  confirmed: boolean;
  last_used_step: string;
}

/** The totp_authenticators table: one authenticator app an account, sealed. */
@Injectable()
export class TotpAuthenticatorsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async find(userId: number): Promise<TotpRow | null> {
    const rows: TotpRow[] = await this.db.query(
      `SELECT secret_sealed, confirmed_at IS NOT NULL AS confirmed, last_used_step
         FROM totp_authenticators WHERE user_id = $1`,
      [userId],
    );
    return rows[0] ?? null;
  }

  /** A new, unconfirmed secret; one not yet confirmed is replaced, a confirmed one is kept (false). */
  async startEnrolment(userId: number, sealed: Buffer): Promise<boolean> {
    const rows = await changedRows(
      this.db.manager,
      `INSERT INTO totp_authenticators (user_id, secret_sealed) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, last_used_step = 0,
                                           created_at = now()
        WHERE totp_authenticators.confirmed_at IS NULL
       RETURNING user_id`,
      [userId, sealed],
    );
    return rows.length > 0;
  }

  /**
   * Takes the code's time step if it is later than the last one taken (a code works once) on
   * the secret that proved it; false when the step was used, or the secret replaced meanwhile.
   */
  async useStep(userId: number, step: number, proved: Buffer): Promise<boolean> {
    const rows = await changedRows(
      this.db.manager,
      `UPDATE totp_authenticators SET last_used_step = $2
        WHERE user_id = $1 AND last_used_step < $2 AND secret_sealed = $3 AND confirmed_at IS NOT NULL
       RETURNING user_id`,
      [userId, step, proved],
    );
    return rows.length > 0;
  }

  /** Confirms the unconfirmed secret that proved the code, taking its step; false when it was replaced. */
  async confirm(tx: Tx, userId: number, step: number, proved: Buffer): Promise<boolean> {
    const rows = await changedRows(
      tx,
      `UPDATE totp_authenticators SET last_used_step = $2, confirmed_at = now()
        WHERE user_id = $1 AND last_used_step < $2 AND secret_sealed = $3 AND confirmed_at IS NULL
       RETURNING user_id`,
      [userId, step, proved],
    );
    return rows.length > 0;
  }

  /** Whether a confirmed one was removed (an unconfirmed one goes too, silently). */
  async remove(tx: Tx, userId: number): Promise<boolean> {
    const rows = await changedRows<{ confirmed: boolean }>(
      tx,
      `DELETE FROM totp_authenticators WHERE user_id = $1 RETURNING confirmed_at IS NOT NULL AS confirmed`,
      [userId],
    );
    return rows[0]?.confirmed ?? false;
  }
}
