import { Injectable } from '@nestjs/common';
import type { Tx } from '../database/transactions';

/** The acceptances table: one row a delivery of finished goods from a production site. */
@Injectable()
export class AcceptancesRepository {
  async insert(tx: Tx, brandId: number, siteId: number): Promise<{ id: number; createdAt: Date }> {
    const rows: Array<{ id: number; created_at: Date }> = await tx.query(
      'INSERT INTO acceptances (brand_id, site_id) VALUES ($1, $2) RETURNING id, created_at',
      [brandId, siteId],
    );
    return { id: rows[0].id, createdAt: rows[0].created_at };
  }
}
