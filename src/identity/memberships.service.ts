import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BRAND_PERMISSIONS, type BrandPermission } from '../common/context/permissions';
import { AppError } from '../common/errors/app-error';
import { isForeignKeyViolation } from '../common/errors/pg-errors';

export interface MembershipView {
  brandId: number;
  userId: number;
  permissions: BrandPermission[];
}

@Injectable()
export class MembershipsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Sets a member's permissions in a brand; an empty list ends the membership. */
  async put(brandId: number, userId: number, permissions: BrandPermission[]): Promise<MembershipView> {
    // Stored in the closed list's order, without repeats, so equal sets compare equal.
    const ordered = BRAND_PERMISSIONS.filter((p) => permissions.includes(p));
    if (ordered.length === 0) {
      await this.assertExist(brandId, userId);
      await this.db.query('DELETE FROM memberships WHERE brand_id = $1 AND user_id = $2', [brandId, userId]);
      return { brandId, userId, permissions: [] };
    }
    try {
      await this.db.query(
        `INSERT INTO memberships (brand_id, user_id, permissions) VALUES ($1, $2, $3)
         ON CONFLICT (brand_id, user_id) DO UPDATE SET permissions = EXCLUDED.permissions, updated_at = now()`,
        [brandId, userId, ordered],
      );
    } catch (error) {
      if (isForeignKeyViolation(error)) throw AppError.notFound();
      throw error;
    }
    return { brandId, userId, permissions: ordered };
  }

  private async assertExist(brandId: number, userId: number): Promise<void> {
    const rows: Array<{ brand: boolean; user: boolean }> = await this.db.query(
      `SELECT EXISTS (SELECT 1 FROM brands WHERE id = $1) AS brand, EXISTS (SELECT 1 FROM users WHERE id = $2) AS user`,
      [brandId, userId],
    );
    if (!rows[0].brand || !rows[0].user) throw AppError.notFound();
  }
}
