import { type BrandPermission, NO_PERMISSIONS } from './permissions';
import type { Principal } from './principal';

/** A sender proven by its signature (the bank, the carrier): no brand, no permissions. */
export class WebhookPrincipal implements Principal {
  readonly kind = 'webhook' as const;
  readonly id = 0;
  readonly isSuperadmin = false;
  readonly boundBrandId = null;

  constructor(readonly flow: 'payment' | 'carrier') {}

  defaultBrandId(): null {
    return null;
  }

  permissionsIn(): ReadonlySet<BrandPermission> {
    return NO_PERMISSIONS;
  }
}
