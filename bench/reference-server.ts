/**
 * The yardstick of the key-checked read: a bare node:http + pg server doing the work of
 * `GET /orders/admin/all` with the service's own statement (the live key check, the page and its
 * total in one round trip) and answering the same JSON shape. No framework, no validation library, no guards:
 * what the service's figure is compared with on the same machine, database and minute, since this
 * machine's speed drifts by tens of percent over a day.
 * Started by the bench: REFERENCE_DATABASE_URL, REFERENCE_PORT, REFERENCE_POOL_SIZE.
 */
import { createServer, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { Pool } from 'pg';
import { fingerprintOf, isWellFormedIntegrationKey } from '../src/access-keys/integration-key-format';
import type { KeyCheckOutcome } from '../src/access-keys/verify-key.query';
import { SETTINGS_MANAGE } from '../src/common/context/permissions';
import { LIST_ORDERS_WITH_KEY } from '../src/orders/order-list.query';
import { GENERIC_PLANS } from '../src/database/data-source-options';
import { DEFAULT_DATABASE_POOL_SIZE } from '../src/config/environment';

// The service's connection settings: without its generic plans the list is re-planned on every
// call, and the yardstick would measure PostgreSQL's planner rather than a bare server (docs/performance.md, PERF-15).
const pool = new Pool({
  connectionString: process.env.REFERENCE_DATABASE_URL,
  max: Number(process.env.REFERENCE_POOL_SIZE ?? DEFAULT_DATABASE_POOL_SIZE),
  options: GENERIC_PLANS,
});

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(text);
}

async function listOrders(authorization: string | undefined, query: URLSearchParams): Promise<[number, unknown]> {
  const key = authorization?.startsWith('Bearer ') ? authorization.slice(7) : '';
  if (!isWellFormedIntegrationKey(key)) return [401, { error: 'Invalid or inactive API key' }];
  const limit = Number(query.get('limit') ?? 50);
  const offset = Number(query.get('offset') ?? 0);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200 || !Number.isInteger(offset) || offset < 0) {
    return [400, { error: 'bad page' }];
  }
  const fingerprint = fingerprintOf(key);
  const { rows } = await pool.query<{ key_check: KeyCheckOutcome; body: string | null }>({
    ...LIST_ORDERS_WITH_KEY,
    values: [fingerprint, 'orders.read', SETTINGS_MANAGE, limit, offset],
  });
  const checked = rows[0].key_check;
  if (!checked.row || !timingSafeEqual(Buffer.from(checked.row.fingerprint, 'hex'), fingerprint)) {
    return [401, { error: 'Invalid or inactive API key' }];
  }
  // Allowlisted keys are not part of the bench.
  if (!checked.acted) return [403, { error: 'Forbidden: Missing permission orders.read' }];
  // The statement's JSON text, sent as it is.
  return [200, rows[0].body];
}

createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://reference');
  if (request.method !== 'GET' || url.pathname !== '/orders/admin/all')
    return send(response, 404, { error: 'Not found' });
  listOrders(request.headers.authorization, url.searchParams).then(
    ([status, body]) => send(response, status, body),
    (error: Error) => send(response, 500, { error: error.message }),
  );
}).listen(Number(process.env.REFERENCE_PORT), '127.0.0.1', () => process.send?.('listening'));
