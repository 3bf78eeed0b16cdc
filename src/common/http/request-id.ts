import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage } from 'node:http';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Runs before anything else, so even a body the parser refuses gets an id in its error and log.
 * A caller's X-Request-Id is kept when it is plain; otherwise a new one is made.
 */
export function assignRequestId(request: Request, response: Response, next: NextFunction): void {
  const offered = request.headers['x-request-id'];
  const id = typeof offered === 'string' && CLIENT_REQUEST_ID.test(offered) ? offered : randomUUID();
  (request as { id?: unknown }).id = id;
  response.setHeader('X-Request-Id', id);
  next();
}

/** For pino-http: the id assigned above. */
export function requestIdOf(request: IncomingMessage): string {
  return String((request as { id?: unknown }).id ?? randomUUID());
}
