import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The request's id, made by the HTTP server before anything else runs, so even a body the parser
 * refuses gets an id in its error and log. A caller's X-Request-Id is kept when it is plain;
 * otherwise a new one is made. Kept on the raw request too, where pino-http looks for it.
 */
export function assignRequestId(request: IncomingMessage): string {
  const offered = request.headers['x-request-id'];
  const id = typeof offered === 'string' && CLIENT_REQUEST_ID.test(offered) ? offered : randomUUID();
  (request as { id?: string }).id = id;
  return id;
}

/** For pino-http: the id assigned above. */
export function requestIdOf(request: IncomingMessage): string {
  const id = (request as { id?: unknown }).id;
  return typeof id === 'string' ? id : randomUUID();
}
