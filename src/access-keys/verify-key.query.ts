import type { BrandPermission } from '../common/context/permissions';
import type { Prepared } from '../database/prepared';

/**
 * The key check on every request with an integration key ($1 the fingerprint, $2 SETTINGS_MANAGE):
 * revocation, expiry and the author's standing are read live, never cached.
 */
export const VERIFY_KEY: Prepared = {
  name: 'verify_integration_key',
  text: `SELECT k.id, k.brand_id, k.name, k.permissions, k.full_access, k.fingerprint, k.last_used_at
           FROM integration_keys k
           JOIN users u ON u.id = k.created_by
           LEFT JOIN memberships m ON m.user_id = k.created_by AND m.brand_id = k.brand_id
          WHERE k.fingerprint = $1
            AND k.revoked_at IS NULL
            AND (k.expires_at IS NULL OR k.expires_at > now())
            AND u.active
            AND CASE WHEN k.issued_as_superadmin THEN u.is_superadmin
                     ELSE u.is_superadmin OR $2 = ANY (m.permissions) END`,
};

export interface VerifiedKeyRow {
  id: number;
  brand_id: number;
  name: string;
  permissions: BrandPermission[];
  full_access: boolean;
  fingerprint: Buffer;
  last_used_at: Date | null;
}
