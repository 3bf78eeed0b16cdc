import { type BrandPermission, NO_PERMISSIONS } from '../common/context/permissions';
import type { Principal } from '../common/context/principal';

/** A key's rate-limit counter: a prefix of its fingerprint, known before the key is checked. */
export const rateLimitKeyOf = (fingerprint: Buffer): string => fingerprint.subarray(0, 12).toString('hex');

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
    readonly allowedIps: readonly string[] | null,
    /** rateLimitKeyOf(fingerprint): the same counter whether the key was checked by a guard or a statement. */
    readonly rateLimitKey: string,
  ) {}

  defaultBrandId(): number {
    return this.boundBrandId;
  }

  permissionsIn(brandId: number): ReadonlySet<BrandPermission> {
    return brandId === this.boundBrandId ? this.permissions : NO_PERMISSIONS;
  }
}
