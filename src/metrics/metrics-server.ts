import { createServer, type Server } from 'node:http';

/** What a scrape answers: Prometheus' text format and its content type. */
export interface Exposition {
  contentType: string;
  body: string;
}

/**
 * `GET /metrics` on its own port, apart from the API (whose own `/metrics` stays a 404): a plain
 * HTTP server with nothing of the API's framework, so scrapes never pass the API's guards or reach
 * its request figures. Resolves once listening; rejects when it cannot listen (a port taken).
 */
export async function serveMetrics(
  port: number,
  host: string,
  expose: () => Promise<Exposition>,
  failed: (error: Error) => void,
): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    expose().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'Content-Type': contentType });
        response.end(request.method === 'HEAD' ? undefined : canonicalNaN(body));
      },
      (error: Error) => {
        failed(error);
        response.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Service unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/**
 * prom-client writes NaN as `Nan` (a gauge with nothing measured yet, such as the event loop's
 * mean lag between two close scrapes). Prometheus reads either; the format's own spelling is `NaN`.
 */
export function canonicalNaN(body: string): string {
  return body.includes(' Nan') ? body.replace(/ Nan$/gm, ' NaN') : body;
}

/** Stops listening and drops a scraper's kept-alive connection, so shutdown does not wait for it. */
export function closeMetricsServer(server: Server | undefined): Promise<void> {
  if (!server) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
