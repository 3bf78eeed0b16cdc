import type { BrandPermission } from '../common/context/permissions';
import type { Principal } from '../common/context/principal';

const NONE: ReadonlySet<BrandPermission> = new Set();

/** An external integration: bound to the brand whose admin area issued it, with fixed permissions. */
export class IntegrationKeyPrincipal implements Principal {
  readonly kind = 'integration_key' as const;
  readonly isSuperadmin = false;

  constructor(
    readonly id: number,
    readonly name: string,
    readonly boundBrandId: number,
    private readonly permissions: ReadonlySet<BrandPermission>,
    /** Where the key may be used from; null: anywhere. */
    readonly allowedIps: readonly string[] | null = null,
  ) {}

  defaultBrandId(): number {
    return this.boundBrandId;
  }

  permissionsIn(brandId: number): ReadonlySet<BrandPermission> {
    return brandId === this.boundBrandId ? this.permissions : NONE;
  }
}
