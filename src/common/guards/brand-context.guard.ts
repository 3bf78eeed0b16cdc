import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { headerOf } from '../http/header-of';
import { BrandDirectory } from '../context/brand-directory';
import { contextOf, requestOf } from '../context/context-of';
import type { RequestContext } from '../context/request-context';
import { routeAccessOf, type RouteAccess } from './route-access';
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

  /** Answers at once unless a superadministrator names a brand, which is looked up. */
  canActivate(execution: ExecutionContext): boolean | Promise<boolean> {
    const access = routeAccessOf(this.reflector, execution);
    if (access.isPublic) return true;
    const request = requestOf(execution);
    const ctx = contextOf(request);
    const principal = ctx.principal!;

    const raw = (request.params as Record<string, string | undefined> | undefined)?.brandId;
    const pathBrand = raw === undefined ? undefined : parseId(raw, 'brandId');
    if (pathBrand !== undefined) {
      // A member who names a brand not theirs is refused by the permission guard; a
      // superadministrator may name any brand, so one that does not exist is a 404 here, before
      // a write meets the foreign key.
      if (principal.isSuperadmin) return this.settleNamed(ctx, access, pathBrand, () => AppError.notFound());
      ctx.brandId = pathBrand;
    } else if (principal.boundBrandId !== null) {
      ctx.brandId = principal.boundBrandId;
    } else {
      const header = headerOf(request, 'x-brand-id');
      const headerBrand = header === undefined ? undefined : parseId(header, 'X-Brand-Id');
      if (headerBrand === undefined) ctx.brandId = principal.defaultBrandId();
      else if (principal.isSuperadmin) return this.settleNamed(ctx, access, headerBrand, () => null);
      else ctx.brandId = headerBrand;
    }
    return settled(ctx, access);
  }

  /** A superadministrator's named brand, once it is known to exist; `absent` throws or gives null. */
  private async settleNamed(
    ctx: RequestContext,
    access: RouteAccess,
    brandId: number,
    absent: () => AppError | null,
  ): Promise<boolean> {
    if (await this.brands.exists(brandId)) {
      ctx.brandId = brandId;
    } else {
      const refusal = absent();
      if (refusal) throw refusal;
      ctx.brandId = null;
    }
    return settled(ctx, access);
  }
}

function settled(ctx: RequestContext, access: RouteAccess): true {
  if (ctx.brandId === null && access.needsBrand) throw AppError.forbidden(ErrorText.noBrandAccess);
  return true;
}
