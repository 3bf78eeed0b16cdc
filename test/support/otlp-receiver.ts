import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** OTLP's span kinds as they arrive in JSON. */
export const SpanKind = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  kind: number;
  /** The instrumentation that made it (its scope's name). */
  scope: string;
  attributes: Record<string, unknown>;
}

export interface OtlpPost {
  path: string;
  contentType: string;
  body: Buffer;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}

/**
 * A local OTLP/HTTP collector: keeps every POST as sent, and reads the spans of those sent as
 * JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json).
 */
export class OtlpReceiver {
  readonly posts: OtlpPost[] = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.posts.push({
          path: req.url ?? '',
          contentType: String(req.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks),
        });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Everything exported as JSON, as text: what must never hold a secret. */
  jsonText(): string {
    return this.posts
      .filter((p) => p.contentType.startsWith('application/json'))
      .map((p) => p.body.toString('utf8'))
      .join('\n');
  }

  spans(): ReceivedSpan[] {
    const spans: ReceivedSpan[] = [];
    for (const post of this.posts) {
      if (!post.contentType.startsWith('application/json')) continue;
      const body = JSON.parse(post.body.toString('utf8')) as {
        resourceSpans?: Array<{
          scopeSpans?: Array<{
            scope?: { name?: string };
            spans?: Array<{
              traceId: string;
              spanId: string;
              parentSpanId?: string;
              name: string;
              kind: number;
              attributes?: Array<{ key: string; value: AnyValue }>;
            }>;
          }>;
        }>;
      };
      for (const resource of body.resourceSpans ?? []) {
        for (const scoped of resource.scopeSpans ?? []) {
          for (const span of scoped.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              scope: scoped.scope?.name ?? '',
              attributes: Object.fromEntries((span.attributes ?? []).map((a) => [a.key, valueOf(a.value)])),
            });
          }
        }
      }
    }
    return spans;
  }
}

function valueOf(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}
