import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { PLATFORM_ADMIN, type BrandPermission, type Permission } from '../context/permissions';
import { ErrorText } from '../errors/error-texts';
import { ANY_PERMISSION, NEEDS_BRAND, REQUIRED_PERMISSION, SESSION_ONLY } from './auth-metadata';

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
 * A brand-scoped route open to a caller that holds at least one of `permissions` in the brand,
 * whose service then decides what each of them lets it see (the events API, contract §16: each
 * family of events is read with its own permission). One that holds none is refused as a
 * missing first permission, enforced by the PermissionGuard.
 */
export const RequireAnyPermission = (...permissions: [BrandPermission, ...BrandPermission[]]) =>
  applyDecorators(
    SetMetadata(ANY_PERMISSION, Object.freeze([...permissions])),
    SetMetadata(NEEDS_BRAND, true),
    authDocs(),
    ApiForbiddenResponse({
      description: `${ErrorText.missingPermission(permissions[0])} (holds none of ${permissions.join(', ')}) | ${ErrorText.noBrandAccess} | ${ErrorText.brandNotAllowed}`,
    }),
  );

/** Routes about the caller's own session (logout, me): integration and site keys have none. */
export const RequireSession = () =>
  applyDecorators(
    SetMetadata(SESSION_ONLY, true),
    authDocs(),
    ApiForbiddenResponse({ description: ErrorText.sessionRequired }),
  );
