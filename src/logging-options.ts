import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Options } from 'pino-http';
import { existingContextOf } from './common/context/context-of';
import type { HttpRequest } from './common/context/http-types';
import { requestIdOf } from './common/http/request-id';
import { withoutSecrets } from './common/runtime/without-secrets';

/** What pino's request serializer hands ours; `raw` is the request it was made from. */
interface RequestLogFields {
  id: string;
  method: string;
  url: string;
  remoteAddress?: string;
  raw: { ip?: string };
}

/** Who made a request with a key, for its log line: the key's id and brand, never the key. */
export interface KeyFields {
  brandId: number | null;
  keyId: number;
  keyKind: 'integration_key' | 'site_key';
}

/** A request's key fields once the guards have named its principal; undefined for anyone else. */
export function keyFieldsOf(request: IncomingMessage): KeyFields | undefined {
  const context = existingContextOf(request as unknown as HttpRequest);
  const principal = context?.principal;
  if (!principal || (principal.kind !== 'integration_key' && principal.kind !== 'site_key')) return undefined;
  return { brandId: context.brandId ?? principal.boundBrandId, keyId: principal.id, keyKind: principal.kind };
}

type LineFields = Record<string, unknown>;

function withKeyFields(request: IncomingMessage, line: LineFields): LineFields {
  const key = keyFieldsOf(request);
  return key ? Object.assign(line, key) : line;
}

/** pino-pretty's lines for a terminal: the time, the level, Nest's context and the message, the rest after. */
export const PRETTY_TRANSPORT = {
  target: 'pino-pretty',
  options: {
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context',
    messageFormat: '{if context}[{context}] {end}{msg}',
    singleLine: true,
  },
};

/**
 * pino-http's options. Requests are logged by method, path and status only: no headers, no
 * bodies, no query strings, so no key, password or token reaches a log. Lines are JSON, one a
 * line, unless standard output is a terminal: then pino-pretty writes them for people to read.
 */
export function pinoHttpOptions(
  level: string,
  options: { requestLines: boolean; terminal: boolean },
): Options<IncomingMessage, ServerResponse> {
  return {
    level,
    autoLogging: options.requestLines,
    genReqId: requestIdOf,
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    // Added to the request's line itself: customProps would make a child logger for every line.
    customSuccessObject: (request, _response, line: LineFields) => withKeyFields(request, line),
    customErrorObject: (request, _response, _error, line: LineFields) => withKeyFields(request, line),
    serializers: {
      req: (req: RequestLogFields) => ({
        id: req.id,
        method: req.method,
        path: withoutSecrets(req.url.split('?')[0]),
        // The client address of allowlists and the journal (TRUST_PROXY), not the socket's peer:
        // Express's request has it, and on Fastify middie copies it onto the raw request.
        remoteAddress: req.raw.ip ?? req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    redact: ['req.headers', 'res.headers'],
    ...(options.terminal ? { transport: PRETTY_TRANSPORT } : {}),
  };
}
