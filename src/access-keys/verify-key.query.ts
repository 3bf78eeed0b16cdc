import type { BrandPermission } from '../common/context/permissions';
import type { Prepared } from '../database/prepared';
import { IdentitySql } from '../identity/identity.sql';

/** The columns of a usable key with this fingerprint; every rule of the key check is in the WHERE. */
const usableKeySql = (p: { fingerprint: string; settingsManage: string; fingerprintAs?: string }) =>
  `SELECT k.id, k.brand_id, k.name, k.permissions, k.full_access, ${p.fingerprintAs ?? 'k.fingerprint'},
          k.last_used_at, k.allowed_ips
     FROM integration_keys k
    WHERE k.fingerprint = ${p.fingerprint}
      AND k.revoked_at IS NULL
      AND (k.expires_at IS NULL OR k.expires_at > now())
      AND ${IdentitySql.authorInGoodStanding({ user: 'k.created_by', brand: 'k.brand_id', asSuperadmin: 'k.issued_as_superadmin', permission: p.settingsManage })}`;

/**
 * The key check on every request with an integration key ($1 the fingerprint, $2 SETTINGS_MANAGE):
 * revocation, expiry and the author's standing are read live, never cached.
 */
export const VERIFY_KEY: Prepared = {
  name: 'verify_integration_key',
  text: usableKeySql({ fingerprint: '$1', settingsManage: '$2' }),
};

/**
 * The same check as two CTEs for a statement that carries it (PendingKeyCheck): `key_check`, the
 * usable key's row; `key_ok`, its id and brand only when the statement may act for it without
 * anything the database cannot judge: it holds `permission` (full access grants everything but
 * settings.manage) and has no address allowlist (those are matched in Node, see KeyChecks).
 * The statement's work must depend on `key_ok`; its answer carries `KeyCheckSql.outcome`.
 */
export const KeyCheckSql = {
  ctes: (p: { fingerprint: string; permission: string; settingsManage: string }) =>
    `key_check AS (${usableKeySql({ ...p, fingerprintAs: `encode(k.fingerprint, 'hex') AS fingerprint` })}),
       key_ok AS (SELECT id, brand_id FROM key_check
                   WHERE allowed_ips IS NULL AND ${p.permission}::text <> 'settings.manage'
                     AND (full_access OR ${p.permission}::text = ANY (permissions)))`,
  /** The key's row (or null) and whether the statement acted, as one jsonb value. */
  outcome: `jsonb_build_object('row', (SELECT to_jsonb(c) FROM key_check c), 'acted', EXISTS (SELECT 1 FROM key_ok))`,
};

/** KeyCheckSql.outcome as the driver returns it. */
export interface KeyCheckOutcome {
  row:
    | (Omit<VerifiedKeyRow, 'fingerprint' | 'last_used_at'> & { fingerprint: string; last_used_at: string | null })
    | null;
  acted: boolean;
}

export interface VerifiedKeyRow {
  id: number;
  brand_id: number;
  name: string;
  permissions: BrandPermission[];
  full_access: boolean;
  fingerprint: Buffer;
  last_used_at: Date | null;
  allowed_ips: string[] | null;
}

export function verifiedKeyRowOf(row: NonNullable<KeyCheckOutcome['row']>): VerifiedKeyRow {
  return {
    ...row,
    fingerprint: Buffer.from(row.fingerprint, 'hex'),
    last_used_at: row.last_used_at === null ? null : new Date(row.last_used_at),
  };
}
