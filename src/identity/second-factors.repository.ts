import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '../database/transactions';

export interface MethodsRow {
  totp: boolean;
  passkey: boolean;
  recovery_code: boolean;
}

/** What an account holds of the second-factor tables, in one round trip. */
@Injectable()
export class SecondFactorsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async methodsOf(userId: number, tx?: Tx): Promise<MethodsRow> {
    const rows: MethodsRow[] = await (tx ?? this.db.manager).query(
      `SELECT EXISTS (SELECT 1 FROM totp_authenticators WHERE user_id = $1 AND confirmed_at IS NOT NULL) AS totp,
              EXISTS (SELECT 1 FROM passkeys WHERE user_id = $1) AS passkey,
              EXISTS (SELECT 1 FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL) AS recovery_code`,
      [userId],
    );
    return rows[0];
  }
}
