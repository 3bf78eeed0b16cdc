import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { BrandPermission } from '../common/context/permissions';
import type { Tx } from '../database/transactions';
import { HAS_SECOND_FACTOR } from './second-factor.sql';

/** A brand's members by e-mail (unique, so the order is total), each with whether it holds a second factor. */
export const MEMBERS_OF = `SELECT m.user_id, u.email, m.permissions, ${HAS_SECOND_FACTOR} AS second_factor, u.last_sign_in_at
         FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.brand_id = $1
        ORDER BY u.email`;

export interface MemberRow {
  user_id: number;
  email: string;
  permissions: BrandPermission[];
  second_factor: boolean;
  last_sign_in_at: Date | null;
}

/** The memberships table: one row a user and brand, with the member's permissions. */
@Injectable()
export class MembershipsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Inserts or replaces; a missing brand or user fails on the foreign key. */
  async upsert(
    brandId: number,
    userId: number,
    permissions: BrandPermission[],
    tx: Tx = this.db.manager,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO memberships (brand_id, user_id, permissions) VALUES ($1, $2, $3)
       ON CONFLICT (brand_id, user_id) DO UPDATE SET permissions = EXCLUDED.permissions, updated_at = now()`,
      [brandId, userId, permissions],
    );
  }

  async delete(brandId: number, userId: number, tx: Tx = this.db.manager): Promise<void> {
    await tx.query('DELETE FROM memberships WHERE brand_id = $1 AND user_id = $2', [brandId, userId]);
  }

  /** Whether the brand and the user both exist (the module's own tables), in one round trip. */
  async bothExist(brandId: number, userId: number, tx: Tx = this.db.manager): Promise<boolean> {
    const rows: Array<{ brand: boolean; user: boolean }> = await tx.query(
      `SELECT EXISTS (SELECT 1 FROM brands WHERE id = $1) AS brand, EXISTS (SELECT 1 FROM users WHERE id = $2) AS user`,
      [brandId, userId],
    );
    return rows[0].brand && rows[0].user;
  }

  /**
   * Locks the brand's memberships that hold settings.manage, of accounts that are no
   * superadministrator (one is not a member for the last-manager rule), in user order, and gives
   * those of active accounts (a switched-off account manages nothing). Every change of a membership
   * in the brand, and every switching off of one of its managers, takes these locks first, in the
   * same order, so two changes that could each remove the last manager queue instead of both
   * passing the check; a row another transaction took the permission from meanwhile is re-read
   * after the wait and drops out. Whether the accounts are active is read by a statement of its
   * own, after the locks: a row lock's re-read covers the locked row only, and the transaction we
   * waited for may have switched an account off without touching its membership.
   */
  async lockSettingsManagers(tx: Tx, brandId: number): Promise<number[]> {
    const locked: Array<{ user_id: number }> = await tx.query(
      `SELECT m.user_id FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.brand_id = $1 AND 'settings.manage' = ANY (m.permissions) AND NOT u.is_superadmin
        ORDER BY m.user_id FOR UPDATE OF m`,
      [brandId],
    );
    if (locked.length === 0) return [];
    const active: Array<{ id: number }> = await tx.query(
      'SELECT id FROM users WHERE id = ANY ($1::int[]) AND active AND NOT is_superadmin ORDER BY id',
      [locked.map((row) => row.user_id)],
    );
    return active.map((row) => row.id);
  }

  /** The brands in which the user holds settings.manage, in brand order. */
  async brandsManagedBy(tx: Tx, userId: number): Promise<number[]> {
    const rows: Array<{ brand_id: number }> = await tx.query(
      `SELECT brand_id FROM memberships WHERE user_id = $1 AND 'settings.manage' = ANY (permissions) ORDER BY brand_id`,
      [userId],
    );
    return rows.map((row) => row.brand_id);
  }

  /** The member's permissions, the row locked; null when the user is no member of the brand. */
  async lockPermissions(tx: Tx, brandId: number, userId: number): Promise<BrandPermission[] | null> {
    const rows: Array<{ permissions: BrandPermission[] }> = await tx.query(
      'SELECT permissions FROM memberships WHERE brand_id = $1 AND user_id = $2 FOR UPDATE',
      [brandId, userId],
    );
    return rows[0]?.permissions ?? null;
  }

  /** Whether an account of that (normalized) e-mail is a member of the brand. */
  async isMemberByEmail(tx: Tx, brandId: number, email: string): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      'SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.brand_id = $1 AND u.email = $2',
      [brandId, email],
    );
    return rows.length > 0;
  }

  membersOf(brandId: number): Promise<MemberRow[]> {
    return this.db.query(MEMBERS_OF, [brandId]);
  }
}
