import type { ArgumentsHost } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { raw } from 'express';
import type { ErrorFilter } from '../errors/error.filter';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';
import { assertUtf8, parseJsonBody } from './json-body';
import { expressPathIs, mediaTypeOf, type StreamedBody } from './streamed-body';

/** The request and response as a filter's host, for errors raised before Nest's routing. */
function hostOf(request: Request, response: Response, next: NextFunction): ArgumentsHost {
  const args = [request, response, next];
  const http = { getRequest: () => request, getResponse: () => response, getNext: () => next };
  return {
    getArgs: () => args,
    getArgByIndex: (index: number) => args[index],
    switchToHttp: () => http,
    getType: () => 'http',
  } as unknown as ArgumentsHost;
}

const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

const isJson = (contentType: string | undefined) =>
  contentType?.split(';')[0].trim().toLowerCase() === 'application/json';

/**
 * Express's side of the body rules Fastify's parser enforces (contract, conventions): JSON only
 * (another type with a body → 415), UTF-8 only, at most `limit` bytes (413), parsed by the same
 * parseJsonBody with the same errors, the bytes kept for signed webhooks. Its errors go to the
 * same filter as every other, since Express would otherwise answer them itself. A route that
 * reads its own body (`streamed`, streamed-body.ts) finds it unread, as on Fastify.
 */
export function jsonBodyOnly(limit: number, filter: ErrorFilter, streamed: readonly StreamedBody[]): RequestHandler {
  const readBytes = raw({ type: () => true, limit });
  return (request, response, next) => {
    // As Fastify: a GET, HEAD or TRACE is never read for a body.
    if (BODYLESS.has(request.method)) return next();
    const type = mediaTypeOf(request.headers['content-type']);
    if (streamed.some((route) => route.mediaType === type && expressPathIs(route, request.path))) return next();
    readBytes(request, response, (readError?: unknown) => {
      try {
        if (readError) {
          const status = (readError as { status?: number }).status;
          if (status === 413) throw AppError.payloadTooLarge();
          if (status === 415) throw AppError.unsupportedMediaType(); // a Content-Encoding it cannot read
          throw AppError.badRequestText(ErrorText.malformedHttpRequest, [ErrorText.malformedHttpRequest]);
        }
        const bytes: unknown = request.body;
        const contentType = request.headers['content-type'];
        request.body = undefined;
        if (!Buffer.isBuffer(bytes) || (bytes.length === 0 && !isJson(contentType))) return next();
        if (!isJson(contentType)) throw AppError.unsupportedMediaType();
        assertUtf8(contentType);
        (request as Request & { rawBody?: Buffer }).rawBody = bytes;
        request.body = parseJsonBody(bytes.toString('utf8'));
        next();
      } catch (error) {
        filter.catch(error, hostOf(request, response, next));
      }
    });
  };
}
