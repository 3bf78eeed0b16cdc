import { type BrandPermission, NO_PERMISSIONS } from '../common/context/permissions';
import type { Principal } from '../common/context/principal';

export interface SiteKeyIdentity {
  keyId: number;
  site: { id: number; name: string };
  brand: { id: number; name: string; slug: string };
}

/** A production site: opens only the production API, in its site's brand, with no brand permissions. */
export class SiteKeyPrincipal implements Principal {
  readonly kind = 'site_key' as const;
  readonly isSuperadmin = false;
  readonly id: number;
  readonly boundBrandId: number;

  constructor(readonly identity: SiteKeyIdentity) {
    this.id = identity.keyId;
    this.boundBrandId = identity.brand.id;
  }

  defaultBrandId(): number {
    return this.boundBrandId;
  }

  permissionsIn(): ReadonlySet<BrandPermission> {
    return NO_PERMISSIONS;
  }
}
