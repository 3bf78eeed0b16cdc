import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { BrandContext, RequestContext } from '../context/request-context';
import { contextOf, requestOf } from '../context/context-of';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';

/** Injects the request context the guard chain resolved. */
export const Ctx = createParamDecorator((_: unknown, execution: ExecutionContext): RequestContext =>
  contextOf(requestOf(execution)),
);

/**
 * The context of a brand-scoped route (`@RequirePermission` of a brand permission, or the
 * production API), whose brand the guard chain has settled, so services read `ctx.brandId` as a
 * number. Never null there; refused as the brand guard would refuse it if a route ever lacks one.
 */
export const BrandCtx = createParamDecorator((_: unknown, execution: ExecutionContext): BrandContext => {
  const ctx = contextOf(requestOf(execution));
  if (ctx.brandId === null) throw AppError.forbidden(ErrorText.noBrandAccess);
  return ctx as BrandContext;
});
