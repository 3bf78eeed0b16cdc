import type { ArgumentsHost } from '@nestjs/common';
import type { HttpRequest } from './http-types';
import type { RequestContext } from './request-context';

const CONTEXT = Symbol('requestContext');

type WithContext = { [CONTEXT]?: RequestContext };

/** The request's context, created on first use so filters and guards share one object. */
export function contextOf(request: HttpRequest): RequestContext {
  const holder = request as WithContext;
  if (!holder[CONTEXT]) {
    holder[CONTEXT] = {
      requestId: typeof request.id === 'string' ? request.id : '',
      ip: request.ip ?? '',
      method: request.method,
      path: (request.originalUrl ?? request.url).split('?')[0],
      principal: null,
      brandId: null,
    };
    // Fastify's request wraps Node's, which is what the request's log line (pino-http) is given.
    if (request.raw) (request.raw as WithContext)[CONTEXT] = holder[CONTEXT];
  }
  return holder[CONTEXT];
}

/** The request's context if anything has made it (RequestOutcomes reads it after the answer). */
export function existingContextOf(request: HttpRequest): RequestContext | undefined {
  return (request as WithContext)[CONTEXT];
}

/**
 * The HTTP request of a guard's, decorator's or interceptor's context. Nest's `switchToHttp()`
 * makes three closures on every call, and the guard chain asks for the request six times a request.
 */
export function requestOf(execution: ArgumentsHost): HttpRequest {
  return execution.getArgByIndex<HttpRequest>(0);
}
