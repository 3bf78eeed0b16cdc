/** The closed list of brand permissions (contract §2). */
export const BRAND_PERMISSIONS = [
  'orders.read',
  'orders.write',
  'orders.create_partner',
  'products.read',
  'products.write',
  'stock.read',
  'stock.write',
  'returns.read',
  'returns.write',
  'settings.manage',
] as const;

export type BrandPermission = (typeof BRAND_PERMISSIONS)[number];

/** The superadministrator's right. Never granted: it follows from `users.is_superadmin`. */
export const PLATFORM_ADMIN = 'platform.admin';

export type Permission = BrandPermission | typeof PLATFORM_ADMIN;

/** A member's permission only: keys cannot carry it and `fullAccess` does not include it. */
export const SETTINGS_MANAGE: BrandPermission = 'settings.manage';

export const ALL_BRAND_PERMISSIONS: ReadonlySet<BrandPermission> = new Set(BRAND_PERMISSIONS);

export function isBrandPermission(value: unknown): value is BrandPermission {
  return typeof value === 'string' && ALL_BRAND_PERMISSIONS.has(value as BrandPermission);
}

/** What a principal holds in a brand that is not its own. */
export const NO_PERMISSIONS: ReadonlySet<BrandPermission> = new Set();
