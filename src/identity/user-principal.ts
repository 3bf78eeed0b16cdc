import { type BrandPermission, NO_PERMISSIONS } from '../common/context/permissions';
import { ALL_BRAND_PERMISSIONS } from '../common/context/permissions';
import type { Principal } from '../common/context/principal';

export interface MembershipRow {
  brandId: number;
  /** The brand's name and slug, for a brand chooser (GET /auth/me). */
  brandName?: string;
  brandSlug?: string;
  permissions: BrandPermission[];
  /** The brand's security policy (contract §19): its members need a second factor. */
  secondFactorRequired?: boolean;
}

/** A person signed in with a session; acts in a brand with the permissions of their membership there. */
export class UserPrincipal implements Principal {
  readonly kind = 'user' as const;
  readonly boundBrandId = null;
  private readonly memberships: ReadonlyMap<number, ReadonlySet<BrandPermission>>;

  constructor(
    readonly id: number,
    readonly email: string,
    readonly isSuperadmin: boolean,
    readonly sessionId: string,
    private readonly rows: MembershipRow[],
    /** When the session last proved its account: its sign-in or a step-up. */
    readonly authenticatedAt: Date = new Date(0),
    /** The account holds an authenticator app or a passkey. */
    readonly hasSecondFactor = false,
  ) {
    this.memberships = new Map(rows.map((m) => [m.brandId, new Set(m.permissions)]));
  }

  /** The brand requires a second factor of its members and this account holds none (contract §19). */
  lacksSecondFactorFor(brandId: number): boolean {
    if (this.hasSecondFactor) return false;
    return this.rows.some((m) => m.brandId === brandId && m.secondFactorRequired === true);
  }

  defaultBrandId(): number | null {
    // A superadministrator works in every brand, so must always name the one meant.
    if (this.isSuperadmin) return null;
    return this.memberships.size === 1 ? [...this.memberships.keys()][0] : null;
  }

  permissionsIn(brandId: number): ReadonlySet<BrandPermission> {
    if (this.isSuperadmin) return ALL_BRAND_PERMISSIONS;
    return this.memberships.get(brandId) ?? NO_PERMISSIONS;
  }

  membershipList(): Array<Required<MembershipRow>> {
    return this.rows.map((m) => ({
      brandId: m.brandId,
      brandName: m.brandName ?? '',
      brandSlug: m.brandSlug ?? '',
      permissions: [...m.permissions],
      secondFactorRequired: m.secondFactorRequired ?? false,
    }));
  }
}
