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
  last_used_ip: string | null;
  allowed_ips: string[] | null;
  rolled_from_id: number | null;
  expired: boolean;
}

/** A key locked for a change (roll, update). */
export interface LockedKeyRow {
  id: number;
  brand_id: number;
  name: string;
  permissions: BrandPermission[];
  full_access: boolean;
  expires_at: Date | null;
  revoked_at: Date | null;
  rolled_at: Date | null;
  allowed_ips: string[] | null;
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
  allowedIps: string[] | null;
  rolledFromId?: number | null;
}

const SELECT_ROWS = `SELECT k.id, k.name, k.key_hint, k.permissions, k.full_access, k.expires_at, k.revoked_at, k.created_at,
       k.created_by, ${IdentitySql.userEmail('k.created_by')} AS author_email, k.last_used_at, k.last_used_ip,
       k.allowed_ips, k.rolled_from_id,
       (k.expires_at IS NOT NULL AND k.expires_at <= now()) AS expired
  FROM integration_keys k`;

/** The reminders' claim of one window: the keys due for it, marked reminded, so each reminder goes once. */
export function claimRemindersSql(window: '7d' | '1d'): string {
  const within = window === '1d' ? "interval '1 day'" : "interval '7 days'";
  const claim =
    window === '1d'
      ? 'reminded_1d_at = now(), reminded_7d_at = COALESCE(reminded_7d_at, now())'
      : 'reminded_7d_at = now()';
  const unclaimed =
    window === '1d' ? 'reminded_1d_at IS NULL' : "reminded_7d_at IS NULL AND expires_at > now() + interval '1 day'";
  return `UPDATE integration_keys SET ${claim}
   WHERE expires_at IS NOT NULL AND revoked_at IS NULL AND rolled_at IS NULL
     AND expires_at > now() AND expires_at <= now() + ${within} AND ${unclaimed}
   RETURNING id, brand_id, name, key_hint, expires_at`;
}

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
    const rows = await this.statements.read<VerifiedKeyRow>(VERIFY_KEY, [fingerprint, authorPermission]);
    return rows[0] ?? null;
  }

  /** Sets lastUsedAt and lastUsedIp unless they were set less than `resolutionSeconds` ago (by any instance). */
  async touch(keyId: number, ip: string, resolutionSeconds: number): Promise<void> {
    await this.db.query(
      `UPDATE integration_keys SET last_used_at = now(), last_used_ip = $3
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2))`,
      [keyId, resolutionSeconds, ip.slice(0, 64)],
    );
  }

  async lockById(tx: Tx, keyId: number): Promise<LockedKeyRow | null> {
    const rows: LockedKeyRow[] = await tx.query(
      `SELECT id, brand_id, name, permissions, full_access, expires_at, revoked_at, rolled_at, allowed_ips,
              (expires_at IS NOT NULL AND expires_at <= now()) AS expired
         FROM integration_keys WHERE id = $1 FOR UPDATE`,
      [keyId],
    );
    return rows[0] ?? null;
  }

  /** The key was rolled: it ends at `endsAt` (never later than it would have). */
  async endByRoll(tx: Tx, keyId: number, endsAt: Date): Promise<void> {
    await tx.query(
      `UPDATE integration_keys SET rolled_at = now(), expires_at = LEAST(COALESCE(expires_at, $2), $2) WHERE id = $1`,
      [keyId, endsAt],
    );
  }

  async update(tx: Tx, keyId: number, change: { name: string; allowedIps: string[] | null }): Promise<void> {
    await tx.query('UPDATE integration_keys SET name = $2, allowed_ips = $3 WHERE id = $1', [
      keyId,
      change.name,
      change.allowedIps,
    ]);
  }

  /**
   * Claims the reminders due now, each once per key whichever instance asks (the UPDATE marks
   * them): `1d` for active keys expiring within a day (a key first seen there gets only this
   * one), `7d` for those expiring within a week but not a day. Rolled keys are left alone.
   */
  claimReminders(tx: Tx, window: '7d' | '1d'): Promise<ExpiringKeyRow[]> {
    return changedRows<ExpiringKeyRow>(tx, claimRemindersSql(window), []);
  }
}

export interface ExpiringKeyRow {
  id: number;
  brand_id: number;
  name: string;
  key_hint: string;
  expires_at: Date;
}
