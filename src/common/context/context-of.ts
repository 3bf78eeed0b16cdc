import type { Request } from 'express';
import type { RequestContext } from './request-context';

const CONTEXT = Symbol('requestContext');

type WithContext = Request & { [CONTEXT]?: RequestContext };

/** The request's context, created on first use so filters and guards share one object. */
export function contextOf(request: Request): RequestContext {
  const holder = request as WithContext;
  if (!holder[CONTEXT]) {
    holder[CONTEXT] = {
      requestId: String(request.id ?? ''),
      ip: request.ip ?? '',
      method: request.method,
      path: request.originalUrl.split('?')[0],
      principal: null,
      brandId: null,
    };
  }
  return holder[CONTEXT];
}
