import type { IncomingHttpHeaders } from 'node:http';

/** What guards, filters and the request context read of a request: the same on Fastify and Express. */
export interface HttpRequest {
  headers: IncomingHttpHeaders;
  method: string;
  /** Fastify: path and query. Express: relative to the router, so `originalUrl` wins there. */
  url: string;
  originalUrl?: string;
  params?: unknown;
  ip?: string;
  /** Assigned by assignRequestId before anything else runs. */
  id?: unknown;
  /** The body's bytes as received, for signed webhooks. */
  rawBody?: Buffer;
  /** Every header line as sent (Express: the request is Node's); Fastify keeps Node's request as `raw`. */
  rawHeaders?: string[];
  raw?: { rawHeaders: string[] };
}

/** What controllers set on an answer; Fastify's reply and Express's response both have these. */
export interface HttpReply {
  header(name: string, value: string): unknown;
  status(code: number): unknown;
}
