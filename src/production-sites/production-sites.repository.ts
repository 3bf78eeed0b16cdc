import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { changedRows } from '../database/returning';
import type { Tx } from '../database/transactions';
import { IdentitySql } from '../identity/identity.sql';
import { ProductionSiteEntity } from './production-site.entity';
import { SiteKeyEntity } from './site-key.entity';

export interface UsableSiteKeyRow {
  key_id: number;
  fingerprint: Buffer;
  site_id: number;
  site_name: string;
  brand_id: number;
  brand_name: string;
  brand_slug: string;
}

/** The production_sites and site_keys tables. Only fingerprints of site keys are stored. */
@Injectable()
export class ProductionSitesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  insertSite(brandId: number, name: string): Promise<ProductionSiteEntity> {
    const sites = this.db.getRepository(ProductionSiteEntity);
    return sites.save(sites.create({ brandId, name }));
  }

  sitesOfBrand(brandId: number): Promise<ProductionSiteEntity[]> {
    return this.db.getRepository(ProductionSiteEntity).find({ where: { brandId }, order: { id: 'ASC' } });
  }

  siteById(siteId: number): Promise<ProductionSiteEntity | null> {
    return this.db.getRepository(ProductionSiteEntity).findOne({ where: { id: siteId } });
  }

  async updateSite(tx: Tx, siteId: number, change: { name: string; active: boolean }): Promise<void> {
    await tx.getRepository(ProductionSiteEntity).update({ id: siteId }, change);
  }

  insertKey(
    tx: Tx,
    key: { siteId: number; fingerprint: Buffer; keyHint: string; createdBy: number },
  ): Promise<SiteKeyEntity> {
    const keys = tx.getRepository(SiteKeyEntity);
    return keys.save(keys.create(key));
  }

  keyOfSite(keyId: number, siteId: number): Promise<SiteKeyEntity | null> {
    return this.db.getRepository(SiteKeyEntity).findOne({ where: { id: keyId, siteId } });
  }

  keysOfSite(siteId: number): Promise<SiteKeyEntity[]> {
    return this.db.getRepository(SiteKeyEntity).find({ where: { siteId }, order: { id: 'ASC' } });
  }

  /** Sets lastUsedAt unless it was set less than `resolutionSeconds` ago (by any instance). */
  async touchKey(keyId: number, resolutionSeconds: number): Promise<void> {
    await this.db.query(
      `UPDATE site_keys SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2))`,
      [keyId, resolutionSeconds],
    );
  }

  keyById(keyId: number): Promise<SiteKeyEntity> {
    return this.db.getRepository(SiteKeyEntity).findOneOrFail({ where: { id: keyId } });
  }

  /** True when this call revoked the key, false when it already was. */
  async revokeKey(tx: Tx, keyId: number): Promise<boolean> {
    const revoked = await changedRows<{ id: number }>(
      tx,
      'UPDATE site_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id',
      [keyId],
    );
    return revoked.length > 0;
  }

  /** The brand of the site a key belongs to, or null for an unknown key. */
  async brandOfKey(keyId: number): Promise<number | null> {
    const rows: Array<{ brand_id: number }> = await this.db.query(
      'SELECT s.brand_id FROM site_keys k JOIN production_sites s ON s.id = k.site_id WHERE k.id = $1',
      [keyId],
    );
    return rows[0]?.brand_id ?? null;
  }

  /** The unrevoked key of an active site with this fingerprint, with its site and brand. */
  async usableKeyByFingerprint(fingerprint: Buffer): Promise<UsableSiteKeyRow | null> {
    const rows: UsableSiteKeyRow[] = await this.db.query(
      `SELECT k.id AS key_id, k.fingerprint, s.id AS site_id, s.name AS site_name, s.brand_id,
              ${IdentitySql.brandField('s.brand_id', 'name')} AS brand_name,
              ${IdentitySql.brandField('s.brand_id', 'slug')} AS brand_slug
         FROM site_keys k JOIN production_sites s ON s.id = k.site_id
        WHERE k.fingerprint = $1 AND k.revoked_at IS NULL AND s.active`,
      [fingerprint],
    );
    return rows[0] ?? null;
  }
}
