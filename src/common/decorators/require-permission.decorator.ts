import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { PLATFORM_ADMIN, type BrandPermission, type Permission } from '../context/permissions';
import { ErrorText } from '../errors/error-texts';
import {
  ACCOUNT_ROUTE,
  ANY_PERMISSION,
  NEEDS_BRAND,
  RECENT_AUTHENTICATION,
  REQUIRED_PERMISSION,
  SESSION_ONLY,
} from './auth-metadata';

const authDocs = () =>
  applyDecorators(
    ApiBearerAuth(),
    ApiCookieAuth('session'),
    ApiUnauthorizedResponse({ description: `${ErrorText.unauthorized} | ${ErrorText.invalidToken}` }),
  );

/**
 * The permission a route needs, enforced by the global PermissionGuard and documented in OpenAPI
 * from the same call, so the docs cannot drift from enforcement. A brand permission also makes
 * the route brand-scoped.
 */
export const RequirePermission = (permission: Permission) =>
  applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, permission),
    SetMetadata(NEEDS_BRAND, permission !== PLATFORM_ADMIN),
    authDocs(),
    ApiForbiddenResponse({
      description:
        permission === PLATFORM_ADMIN
          ? ErrorText.missingPermission(permission)
          : `${ErrorText.missingPermission(permission)} | ${ErrorText.noBrandAccess} | ${ErrorText.brandNotAllowed}`,
    }),
  );

/**
 * A brand-scoped route whose service decides what each of `permissions` lets the caller see (the
 * events API, contract §16: each family of events is read with its own permission) and refuses a
 * request by naming the one it needed (a caller holding none of them, where the request names
 * none: the first). The PermissionGuard, which cannot tell which a request needs, asks for a brand.
 */
export const PermissionsCheckedByService = (...permissions: [BrandPermission, ...BrandPermission[]]) =>
  applyDecorators(
    SetMetadata(ANY_PERMISSION, Object.freeze([...permissions])),
    SetMetadata(NEEDS_BRAND, true),
    authDocs(),
    ApiForbiddenResponse({
      description: `${ErrorText.missingPermission(permissions[0])} (holds none of ${permissions.join(', ')}) | ${ErrorText.missingPermission('<the one a request needs>')} | ${ErrorText.noBrandAccess} | ${ErrorText.brandNotAllowed}`,
    }),
  );

/** Routes about the caller's own session (logout, me): integration and site keys have none. */
export const RequireSession = () =>
  applyDecorators(
    SetMetadata(SESSION_ONLY, true),
    authDocs(),
    ApiForbiddenResponse({ description: ErrorText.sessionRequired }),
  );

/**
 * A sensitive action (contract §19): a person's session must have proved its account within
 * RECENT_AUTH_SECONDS, by signing in or by `POST /auth/step-up`. Checked by the PermissionGuard
 * after the permission, so a missing permission is answered first.
 * Keys are not sessions: the rule is not theirs.
 */
export const RequireRecentAuthentication = () =>
  applyDecorators(
    SetMetadata(RECENT_AUTHENTICATION, true),
    ApiForbiddenResponse({ description: ErrorText.recentAuthRequired }),
  );

/**
 * A controller of the caller's own account (`/auth/*`): a brand's second-factor policy does not
 * refuse it, so a member the policy blocks can still sign out and enrol (contract §19).
 */
export const AccountRoutes = () => SetMetadata(ACCOUNT_ROUTE, true);
