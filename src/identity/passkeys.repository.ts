import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { changedRows } from '../database/returning';
import type { Tx } from '../database/transactions';

export interface PasskeyRow {
  id: number;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

export interface StoredCredential {
  id: number;
  credential_id: string;
  public_key: Buffer;
  counter: string;
  transports: string[];
}

/** The passkeys table, and the WebAuthn challenge each session was last given. */
@Injectable()
export class PasskeysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  listOf(userId: number): Promise<PasskeyRow[]> {
    return this.db.query(
      'SELECT id, name, created_at, last_used_at FROM passkeys WHERE user_id = $1 ORDER BY created_at DESC, id DESC',
      [userId],
    );
  }

  credentialsOf(userId: number): Promise<StoredCredential[]> {
    return this.db.query(
      'SELECT id, credential_id, public_key, counter, transports FROM passkeys WHERE user_id = $1 ORDER BY id',
      [userId],
    );
  }

  /** Null when the credential is registered already (to this account or another). */
  async insert(
    tx: Tx,
    passkey: {
      userId: number;
      name: string;
      credentialId: string;
      publicKey: Buffer;
      counter: number;
      transports: string[];
    },
  ): Promise<PasskeyRow | null> {
    const rows = await changedRows<PasskeyRow>(
      tx,
      `INSERT INTO passkeys (user_id, name, credential_id, public_key, counter, transports)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (credential_id) DO NOTHING
       RETURNING id, name, created_at, last_used_at`,
      [passkey.userId, passkey.name, passkey.credentialId, passkey.publicKey, passkey.counter, passkey.transports],
    );
    return rows[0] ?? null;
  }

  /**
   * Takes the signature counter an assertion carried. WebAuthn's rule (a counter only grows,
   * unless the authenticator keeps none: both zero) is checked here as well as by the library, so
   * two assertions of one counting authenticator racing cannot both pass. An authenticator that
   * keeps no counter (synced passkeys) is held to once by its challenge, taken by its answer.
   */
  async noteUse(id: number, counter: number): Promise<boolean> {
    const rows = await changedRows(
      this.db.manager,
      `UPDATE passkeys SET counter = $2, last_used_at = now()
        WHERE id = $1 AND (counter < $2 OR (counter = 0 AND $2 = 0)) RETURNING id`,
      [id, counter],
    );
    return rows.length > 0;
  }

  async remove(tx: Tx, userId: number, id: number): Promise<boolean> {
    const rows = await changedRows(tx, 'DELETE FROM passkeys WHERE user_id = $1 AND id = $2 RETURNING id', [
      userId,
      id,
    ]);
    return rows.length > 0;
  }

  async putChallenge(sessionId: string, purpose: 'register' | 'step_up', challenge: string, ttlSeconds: number) {
    await this.db.query(
      `INSERT INTO session_passkey_challenges (session_id, purpose, challenge, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4))
       ON CONFLICT (session_id, purpose) DO UPDATE SET challenge = EXCLUDED.challenge, expires_at = EXCLUDED.expires_at`,
      [sessionId, purpose, challenge, ttlSeconds],
    );
  }

  /** The session's live challenge, taken: each works for one answer. */
  async takeChallenge(sessionId: string, purpose: 'register' | 'step_up'): Promise<string | null> {
    const rows = await changedRows<{ challenge: string; live: boolean }>(
      this.db.manager,
      `DELETE FROM session_passkey_challenges WHERE session_id = $1 AND purpose = $2
       RETURNING challenge, expires_at > now() AS live`,
      [sessionId, purpose],
    );
    return rows[0]?.live ? rows[0].challenge : null;
  }
}
