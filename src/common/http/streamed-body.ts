import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';

/**
 * A route that reads its own body once its guards have let the request through: both platforms'
 * body handling leaves a body of this type on this route unread. A feature declares it beside its
 * route, and setup-app hands the declarations to the body handling, which names no route itself.
 */
export interface StreamedBody {
  /** The route as declared (Fastify's `routeOptions.url`). */
  readonly url: string;
  /** The media type it takes, lowercase, without parameters. */
  readonly mediaType: string;
  readonly limitBytes: number;
}

export const mediaTypeOf = (contentType: string | undefined): string | undefined =>
  contentType?.split(';')[0].trim().toLowerCase();

/** Whether an Express request's path is the declared route, as Express's router matches it (any case, a trailing slash). */
export function expressPathIs(route: StreamedBody, path: string): boolean {
  const bare = path.endsWith('/') ? path.slice(0, -1) : path;
  return bare.toLowerCase() === route.url.toLowerCase();
}

/** The request's own stream: Fastify's request wraps it (`raw`), Express's is it. */
function streamOf(request: object): IncomingMessage {
  return ((request as { raw?: IncomingMessage }).raw ?? request) as IncomingMessage;
}

/**
 * The body, up to the route's limit (413 beyond, from Content-Length before a byte is read); a
 * request whose body ends early or that carries a Content-Encoding gets a 400 or 415, as the
 * platforms' own parsers answer them.
 */
export async function readStreamedBody(request: object, route: StreamedBody): Promise<Buffer> {
  const stream = streamOf(request);
  const encoding = stream.headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') throw AppError.unsupportedContentEncoding();
  if (stream.readableEnded) return Buffer.alloc(0);
  const declared = stream.headers['content-length'];
  try {
    return await getRawBody(stream, {
      limit: route.limitBytes,
      length: declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : null,
    });
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 413) throw AppError.payloadTooLarge();
    throw AppError.badRequestText(ErrorText.malformedHttpRequest, [ErrorText.malformedHttpRequest]);
  }
}
