import type { BrandPermission } from '../common/context/permissions';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { assertReadable, readableTypes } from './event-reading';
import { PRODUCT_EVENT_TYPES } from '../catalog/product-events';
import { ORDER_EVENT_TYPES } from '../orders/order-events';
import { RETURN_EVENT_TYPES } from '../returns/return-events';
import { STOCK_EVENT_TYPES } from '../stock-ledger/stock-events';

const holds = (...permissions: BrandPermission[]) => new Set(permissions);

function refusal(run: () => unknown): { status: number; error: string } | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, error: error.message };
    throw error;
  }
  return undefined;
}

describe('which events a caller reads', () => {
  it('without types: every type of every family its permissions read', () => {
    expect(readableTypes(undefined, holds('orders.read'))).toEqual([...ORDER_EVENT_TYPES]);
    expect(readableTypes(undefined, holds('returns.read', 'stock.read', 'orders.write'))).toEqual([
      ...RETURN_EVENT_TYPES,
      ...STOCK_EVENT_TYPES,
    ]);
    expect(
      readableTypes(undefined, holds('orders.read', 'returns.read', 'stock.read', 'products.read')).sort(),
    ).toEqual([...ORDER_EVENT_TYPES, ...RETURN_EVENT_TYPES, ...STOCK_EVENT_TYPES, ...PRODUCT_EVENT_TYPES].sort());
    expect(() => readableTypes(undefined, holds('settings.manage', 'orders.write'))).toThrow(
      'Forbidden: Missing permission orders.read',
    );
  });

  it('an unknown name anywhere in the list is a 400, before any permission is judged', () => {
    for (const types of ['stock.*,bogus.x', 'bogus.x,stock.*']) {
      expect(() => readableTypes(types, holds('orders.read'))).toThrow(expect.objectContaining({ status: 400 }));
    }
  });

  it('types a caller holding no read permission asks for: a 403 naming the permission each needs', () => {
    const writer = holds('products.write', 'stock.write', 'orders.write');
    expect(() => readableTypes('stock.*', writer)).toThrow('Forbidden: Missing permission stock.read');
    expect(() => readableTypes('product.created', writer)).toThrow('Forbidden: Missing permission products.read');
    expect(() => readableTypes('return.*', holds())).toThrow('Forbidden: Missing permission returns.read');
  });

  it('types: exact types and family prefixes, each once', () => {
    const all = holds('orders.read', 'returns.read', 'stock.read', 'products.read');
    expect(readableTypes('order.paid', all)).toEqual(['order.paid']);
    expect(readableTypes('order.*,order.paid', all)).toEqual([...ORDER_EVENT_TYPES]);
    expect(readableTypes('return.refunded,order.paid,return.refunded', all)).toEqual(['return.refunded', 'order.paid']);
    expect(readableTypes('stock.*', holds('stock.read'))).toEqual(['stock.changed']);
    expect(readableTypes('product.*', holds('products.read'))).toEqual(['product.created', 'product.updated']);
  });

  it.each([
    '',
    'order',
    'order.',
    'order.**',
    '*',
    'orders.*',
    'order.unknown',
    'webhook.test',
    'order.paid,',
    ' order.paid',
  ])('types=%p is a 400 naming what is unknown', (types) => {
    const outcome = refusal(() => readableTypes(types, holds('orders.read')));
    expect(outcome?.status).toBe(400);
    expect(outcome?.error).toMatch(/^types must list event types or prefixes such as order\.\*: ".*" is neither$/);
  });

  it('a type the caller may not read is a 403 naming the permission, before anything is read', () => {
    expect(refusal(() => readableTypes('return.*', holds('orders.read')))).toEqual({
      status: 403,
      error: ErrorText.missingPermission('returns.read'),
    });
    expect(refusal(() => readableTypes('order.paid,stock.changed', holds('orders.read')))).toEqual({
      status: 403,
      error: ErrorText.missingPermission('stock.read'),
    });
    expect(refusal(() => readableTypes('product.created', holds('orders.read')))).toEqual({
      status: 403,
      error: ErrorText.missingPermission('products.read'),
    });
  });

  it("one event: its family's permission, else a 403 naming it", () => {
    expect(refusal(() => assertReadable('order.paid', holds('orders.read')))).toBeUndefined();
    expect(refusal(() => assertReadable('return.closed', holds('orders.read')))).toEqual({
      status: 403,
      error: ErrorText.missingPermission('returns.read'),
    });
    expect(refusal(() => assertReadable('nobody.knows', holds('orders.read')))?.status).toBe(404);
  });
});
