import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { BrandPermission } from '../common/context/permissions';

/** The memberships table: one row a user and brand, with the member's permissions. */
@Injectable()
export class MembershipsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Inserts or replaces; a missing brand or user fails on the foreign key. */
  async upsert(brandId: number, userId: number, permissions: BrandPermission[]): Promise<void> {
    await this.db.query(
      `INSERT INTO memberships (brand_id, user_id, permissions) VALUES ($1, $2, $3)
       ON CONFLICT (brand_id, user_id) DO UPDATE SET permissions = EXCLUDED.permissions, updated_at = now()`,
      [brandId, userId, permissions],
    );
  }

  async delete(brandId: number, userId: number): Promise<void> {
    await this.db.query('DELETE FROM memberships WHERE brand_id = $1 AND user_id = $2', [brandId, userId]);
  }

  /** Whether the brand and the user both exist (the module's own tables), in one round trip. */
  async bothExist(brandId: number, userId: number): Promise<boolean> {
    const rows: Array<{ brand: boolean; user: boolean }> = await this.db.query(
      `SELECT EXISTS (SELECT 1 FROM brands WHERE id = $1) AS brand, EXISTS (SELECT 1 FROM users WHERE id = $2) AS user`,
      [brandId, userId],
    );
    return rows[0].brand && rows[0].user;
  }
}
