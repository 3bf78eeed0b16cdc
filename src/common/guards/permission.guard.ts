import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { contextOf, requestOf } from '../context/context-of';
import { PLATFORM_ADMIN } from '../context/permissions';
import { routeAccessOf } from './route-access';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';

/** Last of the chain: may this caller do this, in this brand. */
@Injectable()
export class PermissionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(execution: ExecutionContext): boolean {
    const access = routeAccessOf(this.reflector, execution);
    if (access.isPublic) return true;
    const ctx = contextOf(requestOf(execution));
    const principal = ctx.principal!;

    if (access.sessionOnly && principal.kind !== 'user') {
      throw AppError.forbidden(ErrorText.sessionRequired);
    }
    const any = access.anyPermission;
    if (any !== undefined) {
      // The route's service names the permission a request lacks: it knows which the request needed.
      if (ctx.brandId === null) throw AppError.forbidden(ErrorText.missingPermission(any[0]));
      return true;
    }
    const required = access.permission;
    if (required === undefined) return true;
    const allowed =
      required === PLATFORM_ADMIN
        ? principal.isSuperadmin
        : ctx.brandId !== null && principal.permissionsIn(ctx.brandId).has(required);
    if (!allowed) throw AppError.forbidden(ErrorText.missingPermission(required));
    return true;
  }
}
