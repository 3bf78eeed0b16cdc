import type { BrandPermission } from './permissions';
import type { Principal } from './principal';

const NONE: ReadonlySet<BrandPermission> = new Set();

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
    return NONE;
  }
}
