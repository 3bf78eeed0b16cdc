import type { BrandPermission } from '../common/context/permissions';
import type { Prepared } from '../database/prepared';
import { IdentitySql } from '../identity/identity.sql';

/**
 * The key check on every request with an integration key ($1 the fingerprint, $2 SETTINGS_MANAGE):
 * revocation, expiry and the author's standing are read live, never cached.
 */
export const VERIFY_KEY: Prepared = {
  name: 'verify_integration_key',
  text: `SELECT k.id, k.brand_id, k.name, k.permissions, k.full_access, k.fingerprint, k.last_used_at, k.allowed_ips
           FROM integration_keys k
          WHERE k.fingerprint = $1
            AND k.revoked_at IS NULL
            AND (k.expires_at IS NULL OR k.expires_at > now())
            AND ${IdentitySql.authorInGoodStanding({ user: 'k.created_by', brand: 'k.brand_id', asSuperadmin: 'k.issued_as_superadmin', permission: '$2' })}`,
};

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
