import createFetchClient from 'openapi-fetch';
import { ApiError } from './api-error';
import type { components, operations, paths } from './api-types';
import { followEvents, type EventIterateOptions } from './events';
import { retryingFetch, type RetryOptions } from './retrying-fetch';

export type Schemas = components['schemas'];
type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;
type Body<Op extends keyof operations> = operations[Op] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;

export interface ClientOptions extends RetryOptions {
  /** The service's address, e.g. https://api.shop.example */
  baseUrl: string;
  /** An integration key (`csh_at_…`) or a production site's key. */
  apiKey: string;
  /** Another fetch (a proxy agent, a test double); the global one by default. */
  fetch?: typeof fetch;
}

/** The answer's data, or an ApiError built from its error body. */
async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiError(response.status, error, response.headers);
  return data as T;
}

/**
 * A client of the integration routes (contract §20): one namespace per area, one method per
 * operation, typed by the types generated from the service's OpenAPI document. Failures are
 * ApiErrors; every POST carries an Idempotency-Key its retries reuse.
 */
export function createClient(options: ClientOptions) {
  const http = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(options.fetch ?? globalThis.fetch, options),
  });
  const id = <N extends string>(name: N, value: number) => ({ path: { [name]: value } as Record<N, number> });

  const events = {
    list: (query: Query<'listEvents'> = {}) => unwrap(http.GET('/events', { params: { query } })),
    get: (eventId: number) => unwrap(http.GET('/events/{eventId}', { params: id('eventId', eventId) })),
    /** Every event after `after` (or from the oldest kept), in order, then each new one as it commits. */
    iterate: (iterate: EventIterateOptions = {}) => followEvents(events.list, iterate),
  };

  return {
    catalog: {
      createProduct: (body: Body<'createProduct'>) => unwrap(http.POST('/catalog/products', { body })),
      listProducts: () => unwrap(http.GET('/catalog/products')),
      getProduct: (productId: number) =>
        unwrap(http.GET('/catalog/products/{productId}', { params: id('productId', productId) })),
      updateProduct: (productId: number, body: Body<'updateProduct'>) =>
        unwrap(http.PATCH('/catalog/products/{productId}', { params: id('productId', productId), body })),
      /** The CSV import (contract §18), all or nothing; `dryRun` checks it and changes nothing. */
      importProducts: (csv: string, query: Query<'importProducts'> = {}) =>
        unwrap(
          http.POST('/catalog/products/import', {
            params: { query },
            body: csv,
            bodySerializer: (text) => text,
            headers: { 'Content-Type': 'text/csv' },
          }),
        ),
      exportProducts: () => unwrap(http.GET('/catalog/products/export', { parseAs: 'text' })),
    },
    storefront: {
      /** A storefront's order: created once per partnerOrderId (a repeat answers the first order). */
      webhook: (body: Body<'acceptStorefrontOrder'>) =>
        unwrap(http.POST('/orders/integrations/partner/webhook', { body })),
      preflight: (body: Body<'preflightStorefrontOrder'>) =>
        unwrap(http.POST('/orders/integrations/partner/preflight', { body })),
    },
    orders: {
      list: (query: Query<'listOrders'> = {}) => unwrap(http.GET('/orders/admin/all', { params: { query } })),
      get: (orderId: number) => unwrap(http.GET('/orders/admin/{orderId}', { params: id('orderId', orderId) })),
      create: (body: Body<'createOrder'>) => unwrap(http.POST('/orders/admin', { body })),
      cancel: (orderId: number, body: Body<'cancelOrder'>) =>
        unwrap(http.POST('/orders/admin/{orderId}/cancel', { params: id('orderId', orderId), body })),
    },
    returns: {
      create: (body: Body<'createReturn'>) => unwrap(http.POST('/returns', { body })),
      list: (query: Query<'listReturns'> = {}) => unwrap(http.GET('/returns', { params: { query } })),
      get: (returnId: number) => unwrap(http.GET('/returns/{returnId}', { params: id('returnId', returnId) })),
      approve: (returnId: number) =>
        unwrap(http.POST('/returns/{returnId}/approve', { params: id('returnId', returnId) })),
      decline: (returnId: number, body: Body<'declineReturn'>) =>
        unwrap(http.POST('/returns/{returnId}/decline', { params: id('returnId', returnId), body })),
      cancel: (returnId: number) =>
        unwrap(http.POST('/returns/{returnId}/cancel', { params: id('returnId', returnId) })),
      receive: (returnId: number, body: Body<'receiveReturn'>) =>
        unwrap(http.POST('/returns/{returnId}/receive', { params: id('returnId', returnId), body })),
      refund: (returnId: number, body: Body<'refundReturn'>) =>
        unwrap(http.POST('/returns/{returnId}/refund', { params: id('returnId', returnId), body })),
      close: (returnId: number) => unwrap(http.POST('/returns/{returnId}/close', { params: id('returnId', returnId) })),
    },
    stock: {
      list: () => unwrap(http.GET('/inventory/stock')),
      movements: (query: Query<'listStockMovements'> = {}) =>
        unwrap(http.GET('/inventory/movements', { params: { query } })),
      adjust: (body: Body<'adjustStock'>) => unwrap(http.POST('/inventory/adjustments', { body })),
    },
    events,
  };
}

export type Client = ReturnType<typeof createClient>;
