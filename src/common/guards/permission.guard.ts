import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import type { Environment } from '../../config/environment';
import { contextOf, requestOf } from '../context/context-of';
import { PLATFORM_ADMIN } from '../context/permissions';
import type { Principal } from '../context/principal';
import { routeAccessOf } from './route-access';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';

/**
 * Last of the chain: may this caller do this, in this brand; and, on a route marked
 * `@RequireRecentAuthentication()`, has a person's session proved its account (sign-in or
 * step-up) within RECENT_AUTH_SECONDS, a superadministrator's too. That check follows the
 * permission's, so a missing permission is answered first; keys are not sessions, and pass it.
 * Before both: a member's session without the second factor its brand's policy requires is
 * refused on every route acting in that brand but the account's own (`@AccountRoutes()`).
 */
@Injectable()
export class PermissionGuard implements CanActivate {
  private readonly recentMs: number;

  constructor(
    private readonly reflector: Reflector,
    config: ConfigService<Environment, true>,
  ) {
    this.recentMs = config.get('RECENT_AUTH_SECONDS', { infer: true }) * 1000;
  }

  canActivate(execution: ExecutionContext): boolean {
    const access = routeAccessOf(this.reflector, execution);
    if (access.isPublic) return true;
    const ctx = contextOf(requestOf(execution));
    const principal = ctx.principal!;

    if (access.sessionOnly && principal.kind !== 'user') {
      throw AppError.forbidden(ErrorText.sessionRequired);
    }
    if (!access.accountRoute && ctx.brandId !== null && principal.lacksSecondFactorFor?.(ctx.brandId)) {
      throw AppError.forbidden(ErrorText.secondFactorRequired);
    }
    const any = access.anyPermission;
    if (any !== undefined) {
      // The route's service names the permission a request lacks: it knows which the request needed.
      if (ctx.brandId === null) throw AppError.forbidden(ErrorText.missingPermission(any[0]));
      return true;
    }
    const required = access.permission;
    if (required !== undefined) {
      const allowed =
        required === PLATFORM_ADMIN
          ? principal.isSuperadmin
          : ctx.brandId !== null && principal.permissionsIn(ctx.brandId).has(required);
      if (!allowed) throw AppError.forbidden(ErrorText.missingPermission(required));
    }
    if (access.recentAuthentication) this.assertRecent(principal);
    return true;
  }

  private assertRecent(principal: Principal): void {
    if (principal.kind !== 'user') return;
    const provedAt = principal.authenticatedAt?.getTime() ?? 0;
    if (Date.now() - provedAt > this.recentMs) throw AppError.forbidden(ErrorText.recentAuthRequired);
  }
}
