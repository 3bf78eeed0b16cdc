import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { BrandPermission } from '../common/context/permissions';
import { PreparedStatements } from '../database/prepared';
import { changedRows } from '../database/returning';
import type { Tx } from '../database/transactions';
import { IdentitySql } from '../identity/identity.sql';
import { IntegrationKeyEntity } from './integration-key.entity';
import { VERIFY_KEY, type VerifiedKeyRow } from './verify-key.query';

export interface IntegrationKeyRow {
  id: number;
  name: string;
  key_hint: string;
  permissions: BrandPermission[];
  full_access: boolean;
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  created_by: number;
  author_email: string;
  last_used_at: Date | null;
  expired: boolean;
}

export interface NewIntegrationKey {
  brandId: number;
  name: string;
  fingerprint: Buffer;
  keyHint: string;
  permissions: BrandPermission[];
  fullAccess: boolean;
  expiresAt: Date | null;
  createdBy: number;
  issuedAsSuperadmin: boolean;
}

const SELECT_ROWS = `SELECT k.id, k.name, k.key_hint, k.permissions, k.full_access, k.expires_at, k.revoked_at, k.created_at,
       k.created_by, ${IdentitySql.userEmail('k.created_by')} AS author_email, k.last_used_at,
       (k.expires_at IS NOT NULL AND k.expires_at <= now()) AS expired
  FROM integration_keys k`;

/** The integration_keys table. Only fingerprints are stored. */
@Injectable()
export class IntegrationKeysRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly statements: PreparedStatements,
  ) {}

  async insert(tx: Tx, key: NewIntegrationKey): Promise<number> {
    const inserted = await tx.getRepository(IntegrationKeyEntity).insert(key);
    return inserted.identifiers[0].id as number;
  }

  /** The brand's keys, newest first. */
  ofBrand(brandId: number): Promise<IntegrationKeyRow[]> {
    return this.db.query(`${SELECT_ROWS} WHERE k.brand_id = $1 ORDER BY k.id DESC`, [brandId]);
  }

  async byId(keyId: number): Promise<IntegrationKeyRow | null> {
    const rows: IntegrationKeyRow[] = await this.db.query(`${SELECT_ROWS} WHERE k.id = $1`, [keyId]);
    return rows[0] ?? null;
  }

  owner(keyId: number): Promise<{ id: number; brandId: number } | null> {
    return this.db
      .getRepository(IntegrationKeyEntity)
      .findOne({ where: { id: keyId }, select: { id: true, brandId: true } });
  }

  /** Marks the key revoked; its name when this call revoked it, null when it already was. */
  async revoke(tx: Tx, keyId: number): Promise<string | null> {
    const revoked = await changedRows<{ name: string }>(
      tx,
      'UPDATE integration_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING name',
      [keyId],
    );
    return revoked[0]?.name ?? null;
  }

  /** The usable key with this fingerprint, read live (see VERIFY_KEY). */
  async usableByFingerprint(fingerprint: Buffer, authorPermission: BrandPermission): Promise<VerifiedKeyRow | null> {
    const rows = await this.statements.run<VerifiedKeyRow>(VERIFY_KEY, [fingerprint, authorPermission]);
    return rows[0] ?? null;
  }

  /** Sets lastUsedAt unless it was set less than `resolutionSeconds` ago (by any instance). */
  async touch(keyId: number, resolutionSeconds: number): Promise<void> {
    await this.db.query(
      `UPDATE integration_keys SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2))`,
      [keyId, resolutionSeconds],
    );
  }
}
