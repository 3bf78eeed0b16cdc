/**
 * Traces (contract §15). main.ts imports this first, so the instrumentations patch http, pg,
 * Fastify and Express before anything loads them. Without an OTLP endpoint nothing else is
 * loaded and nothing is patched: the request path runs no tracing code at all.
 */
interface StartedTracing {
  stop(): Promise<void>;
}

let started: StartedTracing | null = null;

/** Whether the environment asks for traces: an OTLP endpoint, and the SDK not switched off. */
export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return Boolean(endpoint) && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
}

if (tracingWanted()) {
  // Required here, not imported above: an import would load the SDK whether traces are wanted or not.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./tracing-sdk') as typeof import('./tracing-sdk');
  started = sdk.startTracing();
}

/** Sends the spans still queued and stops tracing; at once when tracing never started. */
export async function stopTracing(): Promise<void> {
  await started?.stop();
  started = null;
}
