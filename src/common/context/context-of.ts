import type { FastifyRequest } from 'fastify';
import type { RequestContext } from './request-context';

const CONTEXT = Symbol('requestContext');

type WithContext = FastifyRequest & { [CONTEXT]?: RequestContext };

/** The request's context, created on first use so filters and guards share one object. */
export function contextOf(request: FastifyRequest): RequestContext {
  const holder = request as WithContext;
  if (!holder[CONTEXT]) {
    holder[CONTEXT] = {
      requestId: String(request.id ?? ''),
      ip: request.ip ?? '',
      method: request.method,
      path: request.url.split('?')[0],
      principal: null,
      brandId: null,
    };
  }
  return holder[CONTEXT];
}
