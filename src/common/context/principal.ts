import type { BrandPermission } from './permissions';

export type PrincipalKind = 'user' | 'integration_key' | 'site_key' | 'webhook';

/**
 * Who is calling, whatever the credential. The guards only ask these questions, so a new kind
 * of credential plugs in without touching them.
 */
export interface Principal {
  readonly kind: PrincipalKind;
  readonly id: number;
  readonly isSuperadmin: boolean;
  /** Keys are bound to one brand and always act in it; users have none. */
  readonly boundBrandId: number | null;
  /** The brand a user acts in when the request names none: their only membership. */
  defaultBrandId(): number | null;
  permissionsIn(brandId: number): ReadonlySet<BrandPermission>;
  /** When a person's session last proved its account (recent authentication); keys have none. */
  readonly authenticatedAt?: Date;
  /** A person whose session lacks the second factor `brandId`'s policy requires (contract §19); keys never. */
  lacksSecondFactorFor?(brandId: number): boolean;
  /** What the rate limit counts by, when not the id (a key still being checked has none yet). */
  readonly rateLimitKey?: string;
}
