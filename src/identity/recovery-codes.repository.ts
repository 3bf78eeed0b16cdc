import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { changedRows } from '../database/returning';
import type { Tx } from '../database/transactions';

/** The recovery_codes table: fingerprints only, each used once. */
@Injectable()
export class RecoveryCodesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The new set replaces the old one, used codes included. */
  async replace(tx: Tx, userId: number, hashes: Buffer[]): Promise<void> {
    await tx.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
    await tx.query(`INSERT INTO recovery_codes (user_id, code_hash) SELECT $1, unnest($2::bytea[])`, [userId, hashes]);
  }

  async removeAll(tx: Tx, userId: number): Promise<void> {
    await tx.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
  }

  /** Marks the code used; false when it is not one of the account's unused codes. */
  async use(userId: number, hash: Buffer): Promise<boolean> {
    const rows = await changedRows(
      this.db.manager,
      `UPDATE recovery_codes SET used_at = now()
        WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING id`,
      [userId, hash],
    );
    return rows.length > 0;
  }
}
