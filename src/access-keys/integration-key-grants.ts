import { BRAND_PERMISSIONS, SETTINGS_MANAGE, type BrandPermission } from '../common/context/permissions';

/** What a key may carry: every brand permission but settings.manage, which stays with people. */
export const KEY_GRANTABLE_PERMISSIONS: readonly BrandPermission[] = BRAND_PERMISSIONS.filter(
  (p) => p !== SETTINGS_MANAGE,
);

/** The permissions a key acts with: its list, or with fullAccess all grantable ones. */
export function effectivePermissions(
  fullAccess: boolean,
  permissions: readonly BrandPermission[],
): ReadonlySet<BrandPermission> {
  const granted = fullAccess ? KEY_GRANTABLE_PERMISSIONS : permissions;
  return new Set(granted.filter((p) => p !== SETTINGS_MANAGE));
}
