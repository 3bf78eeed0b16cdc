import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import type { Environment } from '../../config/environment';
import { contextOf, requestOf } from '../context/context-of';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';
import { routeAccessOf } from './route-access';

/**
 * After the PermissionGuard: a route marked `@RequireRecentAuthentication()` needs a person's
 * session that proved its account (sign-in or step-up) within RECENT_AUTH_SECONDS, a
 * superadministrator's too. Every other request passes on the cached route metadata alone.
 */
@Injectable()
export class RecentAuthenticationGuard implements CanActivate {
  private readonly windowMs: number;

  constructor(
    private readonly reflector: Reflector,
    config: ConfigService<Environment, true>,
  ) {
    this.windowMs = config.get('RECENT_AUTH_SECONDS', { infer: true }) * 1000;
  }

  canActivate(execution: ExecutionContext): boolean {
    const access = routeAccessOf(this.reflector, execution);
    if (!access.recentAuthentication || access.isPublic) return true;
    const principal = contextOf(requestOf(execution)).principal;
    if (principal?.kind !== 'user') return true;
    const provedAt = principal.authenticatedAt?.getTime() ?? 0;
    if (Date.now() - provedAt > this.windowMs) throw AppError.forbidden(ErrorText.recentAuthRequired);
    return true;
  }
}
