import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { BrandPermission } from '../common/context/permissions';
import { changedRows } from '../database/returning';
import type { Tx } from '../database/transactions';
import type { InvitationStatus } from './entities/invitation.entity';

/** How long an invitation's link works (contract §19). */
export const INVITATION_DAYS = 7;

/** An invitation whose link may still work: pending and not past its expiry. */
const LIVE = `i.status = 'pending' AND i.expires_at > now()`;

export interface InvitationRow {
  id: number;
  brand_id: number;
  email: string;
  permissions: BrandPermission[];
  status: InvitationStatus;
  created_at: Date;
  expires_at: Date;
  invited_by: number | null;
  inviter_email: string | null;
}

/** A live invitation found by its token, with what accepting it needs to know. */
export interface TokenInvitationRow {
  id: number;
  brand_id: number;
  brand_name: string;
  email: string;
  permissions: BrandPermission[];
  /** The account of the invited e-mail, if there is one. */
  user_id: number | null;
}

/** What the invitation's mail says, once its token's fingerprint is stored. */
export interface InvitationMailRow {
  email: string;
  permissions: BrandPermission[];
  expires_at: Date;
  brand_name: string;
  inviter_email: string | null;
}

const WITH_INVITER = `SELECT i.id, i.brand_id, i.email, i.permissions, i.status, i.created_at, i.expires_at, i.invited_by,
                             u.email AS inviter_email
                        FROM invitations i LEFT JOIN users u ON u.id = i.invited_by`;

export const LIVE_INVITATIONS_OF = `${WITH_INVITER} WHERE i.brand_id = $1 AND ${LIVE} ORDER BY i.created_at DESC, i.id DESC`;
export const INVITATION_BY_ID = `${WITH_INVITER} WHERE i.id = $1`;
/** A live invitation by its token's fingerprint, with its brand's name and the account of its e-mail. */
export const INVITATION_BY_TOKEN = `SELECT i.id, i.brand_id, b.name AS brand_name, i.email, i.permissions, a.id AS user_id
   FROM invitations i
   JOIN brands b ON b.id = i.brand_id
   LEFT JOIN users a ON a.email = i.email
  WHERE i.token_hash = $1 AND ${LIVE}`;
export const INVITATION_BY_TOKEN_LOCKED = `${INVITATION_BY_TOKEN} FOR UPDATE OF i`;
export const STORE_INVITATION_TOKEN = `WITH minted AS (
         UPDATE invitations i SET token_hash = $2 WHERE i.id = $1 AND ${LIVE}
         RETURNING i.brand_id, i.email, i.permissions, i.expires_at, i.invited_by)
       SELECT m.email, m.permissions, m.expires_at, b.name AS brand_name, u.email AS inviter_email
         FROM minted m JOIN brands b ON b.id = m.brand_id LEFT JOIN users u ON u.id = m.invited_by`;

/** The invitations table (contract §19): tokens only as their SHA-256, one pending per brand and e-mail. */
@Injectable()
export class InvitationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Ends the brand's pending invitation of `email`, if any, as replaced: its link dies with its
   * fingerprint. Gives its id.
   */
  async replacePending(tx: Tx, brandId: number, email: string): Promise<number | null> {
    const rows = await changedRows<{ id: number }>(
      tx,
      `UPDATE invitations SET status = 'replaced', ended_at = now(), token_hash = NULL
        WHERE brand_id = $1 AND email = $2 AND status = 'pending' RETURNING id`,
      [brandId, email],
    );
    return rows[0]?.id ?? null;
  }

  /** A new pending invitation, expiring INVITATION_DAYS after its creation; no token yet (its mail mints one). */
  async insert(
    tx: Tx,
    invitation: { brandId: number; email: string; permissions: BrandPermission[]; invitedBy: number },
  ): Promise<{ id: number; created_at: Date; expires_at: Date }> {
    const rows: Array<{ id: number; created_at: Date; expires_at: Date }> = await tx.query(
      `INSERT INTO invitations (brand_id, email, permissions, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(days => $5))
       RETURNING id, created_at, expires_at`,
      [invitation.brandId, invitation.email, invitation.permissions, invitation.invitedBy, INVITATION_DAYS],
    );
    return rows[0];
  }

  /** The brand's invitations whose links still work, newest first. */
  livePendingOf(brandId: number): Promise<InvitationRow[]> {
    return this.db.query(LIVE_INVITATIONS_OF, [brandId]);
  }

  async findById(invitationId: number, tx: Tx = this.db.manager): Promise<InvitationRow | null> {
    const rows: InvitationRow[] = await tx.query(INVITATION_BY_ID, [invitationId]);
    return rows[0] ?? null;
  }

  /** Revokes a pending invitation (an expired one too): its link dies at once. False when it was not pending. */
  async revoke(tx: Tx, invitationId: number): Promise<boolean> {
    const rows = await changedRows(
      tx,
      `UPDATE invitations SET status = 'revoked', ended_at = now(), token_hash = NULL
        WHERE id = $1 AND status = 'pending' RETURNING id`,
      [invitationId],
    );
    return rows.length > 0;
  }

  /**
   * The live invitation of a token's fingerprint, with its brand's name and the account of its
   * e-mail. With `tx`, its row is locked (FOR UPDATE OF i) until the transaction ends, so of two
   * accepts of one token the second waits, then finds it no longer pending.
   */
  async findLiveByToken(tokenHash: Buffer, tx?: Tx): Promise<TokenInvitationRow | null> {
    const rows: TokenInvitationRow[] = await (tx ?? this.db.manager).query(
      tx ? INVITATION_BY_TOKEN_LOCKED : INVITATION_BY_TOKEN,
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  /** Accepted: the link dies with its fingerprint. */
  async markAccepted(tx: Tx, invitationId: number): Promise<void> {
    await tx.query(`UPDATE invitations SET status = 'accepted', ended_at = now(), token_hash = NULL WHERE id = $1`, [
      invitationId,
    ]);
  }

  /**
   * Stores a new token's fingerprint on the invitation, only while it is pending and unexpired,
   * and gives what its mail says; null when it is no longer live. One statement, committed on its
   * own (no transaction of the caller's), so the fingerprint is stored before the mail leaves.
   */
  async storeToken(invitationId: number, tokenHash: Buffer): Promise<InvitationMailRow | null> {
    const rows: InvitationMailRow[] = await this.db.query(STORE_INVITATION_TOKEN, [invitationId, tokenHash]);
    return rows[0] ?? null;
  }

  /** A new account made by accepting an invitation (its e-mail already normalized). */
  async insertUser(tx: Tx, email: string, passwordHash: string): Promise<{ id: number; email: string }> {
    const rows: Array<{ id: number; email: string }> = await tx.query(
      'INSERT INTO users (email, password_hash) VALUES ($1, $2) RETURNING id, email',
      [email, passwordHash],
    );
    return rows[0];
  }
}
