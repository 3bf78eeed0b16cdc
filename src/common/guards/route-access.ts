import type { ExecutionContext, Type } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { AuthRealm } from '../context/credential-registry';
import type { BrandPermission, Permission } from '../context/permissions';
import {
  ACCOUNT_ROUTE,
  ANY_PERMISSION,
  AUTH_REALM,
  IS_PUBLIC,
  KEY_CHECKED_BY_STATEMENT,
  NEEDS_BRAND,
  RECENT_AUTHENTICATION,
  REQUIRED_PERMISSION,
  SESSION_ONLY,
  SIGNED_WEBHOOK,
  type WebhookFlow,
} from '../decorators/auth-metadata';

/** What a route's access decorators declare, as the guard chain reads it. */
export interface RouteAccess {
  readonly isPublic: boolean;
  readonly signed: WebhookFlow | undefined;
  readonly realm: AuthRealm;
  readonly keyCheckedByStatement: boolean;
  readonly needsBrand: boolean;
  readonly sessionOnly: boolean;
  readonly permission: Permission | undefined;
  /**
   * `@PermissionsCheckedByService`: the permissions the route's service checks itself; the guard
   * only asks for a brand, so such a service must refuse what each request lacks.
   */
  readonly anyPermission: readonly BrandPermission[] | undefined;
  /** `@RequireRecentAuthentication()`: a person's session must have proved its account lately. */
  readonly recentAuthentication: boolean;
  /** `@AccountRoutes()`: the caller's own account, which a brand's second-factor policy leaves open. */
  readonly accountRoute: boolean;
}

// Decorators are fixed once the application is built: read each route's once, not on every
// request (ten metadata lookups per request across the guards otherwise).
const byClass = new WeakMap<Type, WeakMap<object, RouteAccess>>();

export function routeAccessOf(reflector: Reflector, execution: ExecutionContext): RouteAccess {
  const cls = execution.getClass();
  const handler = execution.getHandler();
  let routes = byClass.get(cls);
  if (!routes) byClass.set(cls, (routes = new WeakMap()));
  let access = routes.get(handler);
  if (!access) {
    const targets = [handler, cls];
    const read = <T>(key: string) => reflector.getAllAndOverride<T | undefined>(key, targets);
    access = Object.freeze({
      isPublic: read<boolean>(IS_PUBLIC) === true,
      signed: read<WebhookFlow>(SIGNED_WEBHOOK),
      realm: read<AuthRealm>(AUTH_REALM) ?? 'platform',
      keyCheckedByStatement: read<boolean>(KEY_CHECKED_BY_STATEMENT) === true,
      needsBrand: read<boolean>(NEEDS_BRAND) === true,
      sessionOnly: read<boolean>(SESSION_ONLY) === true,
      permission: read<Permission>(REQUIRED_PERMISSION),
      anyPermission: read<readonly BrandPermission[]>(ANY_PERMISSION),
      recentAuthentication: read<boolean>(RECENT_AUTHENTICATION) === true,
      accountRoute: read<boolean>(ACCOUNT_ROUTE) === true,
    });
    routes.set(handler, access);
  }
  return access;
}
