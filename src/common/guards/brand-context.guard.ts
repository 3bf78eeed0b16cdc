import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { HttpRequest } from '../context/http-types';
import { headerOf } from '../http/header-of';
import { BrandDirectory } from '../context/brand-directory';
import { contextOf } from '../context/context-of';
import { routeAccessOf } from './route-access';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';
import { parseId } from '../validation/parse-id.pipe';

/**
 * Second of the chain: which brand the request acts in. A path that names the brand decides it;
 * keys act in their own brand; a user names it in `X-Brand-Id` or has exactly one membership.
 */
@Injectable()
export class BrandContextGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly brands: BrandDirectory,
  ) {}

  async canActivate(execution: ExecutionContext): Promise<boolean> {
    const access = routeAccessOf(this.reflector, execution);
    if (access.isPublic) return true;
    const request = execution.switchToHttp().getRequest<HttpRequest>();
    const ctx = contextOf(request);
    const principal = ctx.principal!;
    // The key's brand comes with its check, in the route's statement.
    if (ctx.pendingKey) return true;

    const raw = (request.params as Record<string, string | undefined> | undefined)?.brandId;
    const pathBrand = raw === undefined ? undefined : parseId(raw, 'brandId');
    if (pathBrand !== undefined) {
      // A member who names a brand not theirs is refused by the permission guard; a
      // superadministrator may name any brand, so one that does not exist is a 404 here, before
      // a write meets the foreign key.
      if (principal.isSuperadmin && !(await this.brands.exists(pathBrand))) throw AppError.notFound();
      ctx.brandId = pathBrand;
    } else if (principal.boundBrandId !== null) {
      ctx.brandId = principal.boundBrandId;
    } else {
      const header = headerOf(request, 'x-brand-id');
      const headerBrand = header === undefined ? undefined : parseId(header, 'X-Brand-Id');
      if (headerBrand === undefined) {
        ctx.brandId = principal.defaultBrandId();
      } else if (principal.isSuperadmin && !(await this.brands.exists(headerBrand))) {
        ctx.brandId = null;
      } else {
        ctx.brandId = headerBrand;
      }
    }

    if (ctx.brandId === null && access.needsBrand) {
      throw AppError.forbidden(ErrorText.noBrandAccess);
    }
    return true;
  }
}
