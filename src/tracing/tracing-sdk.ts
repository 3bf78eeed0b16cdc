import { FastifyOtelInstrumentation } from '@fastify/otel';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NestInstrumentation } from '@opentelemetry/instrumentation-nestjs-core';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { scrubSpan } from './scrub-spans';

export const DEFAULT_SERVICE_NAME = 'commerce-integration-layer';

type SpanExporter = ProtobufTraceExporter;
type ExportedSpans = Parameters<SpanExporter['export']>[0];
type ExportCallback = Parameters<SpanExporter['export']>[1];

/** Scrubs each span (scrub-spans.ts) on its way to the collector. */
class ScrubbingExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ExportedSpans, done: ExportCallback): void {
    for (const span of spans) scrubSpan(span);
    this.inner.export(spans, done);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }
}

/** OTLP over HTTP, JSON or protobuf as the standard variables say; the endpoint is read by the exporter. */
export function otlpProtocol(env: NodeJS.ProcessEnv = process.env): 'http/json' | 'http/protobuf' {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || '').trim();
  if (protocol === 'http/json') return 'http/json';
  if (protocol && protocol !== 'http/protobuf') {
    process.stderr.write(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported: exporting http/protobuf\n`);
  }
  return 'http/protobuf';
}

/** The default name, unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES names the service (the SDK reads those). */
export function defaultServiceName(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.OTEL_SERVICE_NAME) return undefined;
  if (/(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '')) return undefined;
  return DEFAULT_SERVICE_NAME;
}

export function startTracing(): { stop(): Promise<void> } {
  // W3C trace context only, unless OTEL_PROPAGATORS says otherwise: baggage a caller sends would
  // otherwise be passed on to the carrier and to the integrations' webhook receivers.
  process.env.OTEL_PROPAGATORS ||= 'tracecontext';
  const exporter = otlpProtocol() === 'http/json' ? new JsonTraceExporter() : new ProtobufTraceExporter();
  const sdk = new NodeSDK({
    serviceName: defaultServiceName(),
    traceExporter: new ScrubbingExporter(exporter),
    // Traces only: no OTLP metrics or logs (metrics are Prometheus', logs go to standard output).
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      // No header is captured (none is configured); the query string is scrubbed on export.
      new HttpInstrumentation(),
      // The route template of a Fastify request (@fastify/otel: Fastify's own, maintained
      // instrumentation). Spans cost a traced request most of what tracing costs it, so the
      // frameworks' own are kept to the one that names the route; Nest's show the handler.
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        instrumentHooks: false,
        instrumentHandler: false,
      }),
      // The route template of an Express request; its layers' spans (Nest's middleware and
      // handler) would only repeat Nest's.
      new ExpressInstrumentation({
        ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER, ExpressLayerType.REQUEST_HANDLER],
      }),
      new NestInstrumentation(),
      // Statement text only (its values are placeholders), and statements only: not each
      // connection taken from the pool. Statements outside a request (the workers' polls,
      // migrations) would each be a trace of their own, so they are left out.
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true, ignoreConnectSpans: true }),
      // fetch: the carrier's client.
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  return { stop: () => sdk.shutdown() };
}
