import type { BrandContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import type { Transactions, Tx } from '../database/transactions';
import type { LockedOrder, OrderLifecycle } from '../orders/order-lifecycle';
import { BrandOwnership } from '../security-journal/brand-ownership';
import type { SecurityJournal } from '../security-journal/security-journal.service';
import type { StockLedger } from '../stock-ledger/stock-ledger';
import type { CreateReturnDto } from './dto/create-return.dto';
import type { ReturnStatus } from './return-states';
import { ReturnsService } from './returns.service';
import type { ReturnItemRow, ReturnRow, ReturnsRepository } from './returns.repository';

const tx = {} as Tx;
const ctx = { brandId: 5, principal: { kind: 'integration_key', id: 9 } } as unknown as BrandContext;

const line = (id: number, quantity: number, priceKopeks = 1000) => ({
  id,
  productId: 100 + id,
  sizeId: 200 + id,
  article: `A-${id}`,
  size: 'M',
  quantity,
  returnedQuantity: 0,
  priceKopeks,
});

const order = (changes: Partial<LockedOrder> = {}): LockedOrder => ({
  id: 31,
  brandId: 5,
  orderNumber: '1031',
  status: 'paid',
  stockDeducted: true,
  registeringWithCarrier: false,
  lines: [line(1, 2), line(2, 1, 500)],
  ...changes,
});

const returnRow = (changes: Partial<ReturnRow> = {}): ReturnRow => ({
  id: 41,
  brand_id: 5,
  return_number: 'R-1',
  order_id: 31,
  order_number: '1031',
  external_return_id: 'ext-1',
  origin: 'customer',
  status: 'requested',
  reason_code: 'changed_mind',
  reason_note: null,
  refund_kopeks: '2000',
  refund_status: 'pending',
  created_at: new Date('2026-01-01T00:00:00Z'),
  approved_at: null,
  received_at: null,
  closed_at: null,
  canceled_at: null,
  ...changes,
});

const item = (id: number, orderItemId: number, quantity: number, received = 0): ReturnItemRow => ({
  id,
  return_id: 41,
  order_item_id: orderItemId,
  product_id: 100 + orderItemId,
  size_id: 200 + orderItemId,
  article: `A-${orderItemId}`,
  size: 'M',
  quantity,
  received_quantity: received,
  restocked_quantity: 0,
  price_kopeks: '1000',
});

const request = (changes: Partial<CreateReturnDto> = {}): CreateReturnDto => ({
  orderId: 31,
  externalReturnId: ' ext-1 ',
  items: [{ orderItemId: 1, quantity: 2 }],
  reasonCode: 'changed_mind',
  ...changes,
});

/** The service on a mocked repository and lifecycle: the order, the return and its lines they hold. */
function setUp(state: { order?: LockedOrder; row?: ReturnRow; items?: ReturnItemRow[]; held?: Map<number, number> }) {
  let row = state.row;
  const returns = {
    byExternalId: jest.fn().mockResolvedValue(null),
    byId: jest.fn(async () => row ?? null),
    lockById: jest.fn(async () => row ?? null),
    heldUnits: jest.fn().mockResolvedValue(state.held ?? new Map()),
    insert: jest.fn(async (_tx: Tx, r: { status: ReturnStatus }) => {
      row = returnRow({ status: r.status });
      return row.id;
    }),
    itemsOf: jest.fn().mockResolvedValue(state.items ?? []),
    setStatus: jest.fn().mockResolvedValue(undefined),
    setRefunded: jest.fn().mockResolvedValue(undefined),
    addReceived: jest.fn().mockResolvedValue(undefined),
    appendEvent: jest.fn().mockResolvedValue(undefined),
  };
  const lifecycle = {
    lockById: jest.fn().mockResolvedValue(state.order ?? order()),
    recordReturned: jest.fn().mockResolvedValue(undefined),
  };
  const ledger = { apply: jest.fn().mockResolvedValue(undefined) };
  const journal = { record: jest.fn().mockResolvedValue(undefined) };
  const transactions = { run: jest.fn((work: (tx: Tx) => Promise<unknown>) => work(tx)) };
  const service = new ReturnsService(
    returns as unknown as ReturnsRepository,
    transactions as unknown as Transactions,
    lifecycle as unknown as OrderLifecycle,
    ledger as unknown as StockLedger,
    new BrandOwnership(journal as unknown as SecurityJournal),
  );
  return { service, returns, lifecycle, ledger, journal };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: AppError) => e,
  );

describe('ReturnsService.create', () => {
  it('writes a requested return of the asked lines at the order’s prices, refund defaulting to their total', async () => {
    const { service, returns } = setUp({});
    const answer = await service.create(ctx, request());
    expect(answer.status).toBe(201);
    expect(returns.insert).toHaveBeenCalledWith(
      tx,
      expect.objectContaining({
        brandId: 5,
        orderId: 31,
        externalReturnId: 'ext-1',
        origin: 'customer',
        status: 'requested',
        refundKopeks: 2000,
        refundStatus: 'pending',
        items: [expect.objectContaining({ orderItemId: 1, sizeId: 201, quantity: 2, priceKopeks: 1000 })],
      }),
    );
    expect(returns.appendEvent).toHaveBeenCalledWith(tx, 41, 'return.requested');
  });

  it('answers 200 with the earlier return for a known externalReturnId, and writes nothing', async () => {
    const { service, returns } = setUp({ row: returnRow() });
    returns.byExternalId.mockResolvedValue(returnRow());
    const answer = await service.create(ctx, request());
    expect([answer.status, answer.body.duplicate]).toEqual([200, true]);
    expect(returns.insert).not.toHaveBeenCalled();
  });

  it('refuses more units than the line has left after the order’s other returns (422)', async () => {
    const { service, returns } = setUp({ held: new Map([[1, 1]]) });
    const error = await failure(service.create(ctx, request()));
    expect((error as AppError).status).toBe(422);
    expect(returns.insert).not.toHaveBeenCalled();
  });

  it('refuses an order that is not returnable, a line of another order and a line listed twice (422)', async () => {
    const notPaid = setUp({ order: order({ status: 'new' }) });
    expect(((await failure(notPaid.service.create(ctx, request()))) as AppError).status).toBe(422);
    const { service } = setUp({});
    const bad = request({
      items: [
        { orderItemId: 99, quantity: 1 },
        { orderItemId: 1, quantity: 1 },
        { orderItemId: 1, quantity: 1 },
      ],
    });
    const error = (await failure(service.create(ctx, bad))) as AppError;
    expect([error.status, error.details?.length]).toEqual([422, 2]);
  });

  it('refuses a refund above the lines’ total (400)', async () => {
    const { service, returns } = setUp({});
    const error = await failure(service.create(ctx, request({ refundKopeks: 2001 })));
    expect((error as AppError).status).toBe(400);
    expect(returns.insert).not.toHaveBeenCalled();
  });

  it('journals an order of another brand and answers 403', async () => {
    const { service, journal, returns } = setUp({ order: order({ brandId: 6 }) });
    const error = await failure(service.create(ctx, request()));
    expect((error as AppError).status).toBe(403);
    expect(journal.record).toHaveBeenCalledWith(
      ctx,
      expect.objectContaining({ type: 'brand_violation', targetBrandId: 6 }),
    );
    expect(returns.insert).not.toHaveBeenCalled();
  });
});

describe('ReturnsService moves', () => {
  it('approves a requested return: the status and its event', async () => {
    const { service, returns } = setUp({ row: returnRow() });
    await service.approve(ctx, 41);
    expect(returns.setStatus).toHaveBeenCalledWith(tx, 41, 'approved', undefined);
    expect(returns.appendEvent).toHaveBeenCalledWith(tx, 41, 'return.approved');
  });

  it.each([
    ['approve', 'received'],
    ['cancel', 'partially_received'],
    ['close', 'requested'],
  ] as const)('refuses to %s a return that is %s (409) and writes nothing', async (action, status) => {
    const { service, returns } = setUp({ row: returnRow({ status }) });
    const error = await failure(service[action](ctx, 41));
    expect((error as AppError).status).toBe(409);
    expect(returns.setStatus).not.toHaveBeenCalled();
    expect(returns.appendEvent).not.toHaveBeenCalled();
  });

  it('answers 404 for a return nobody has', async () => {
    const { service } = setUp({});
    expect(((await failure(service.get(ctx, 41))) as AppError).status).toBe(404);
  });
});

describe('ReturnsService.receive', () => {
  it('restocks the restock units through the ledger, counts all as returned, and marks a partial receipt', async () => {
    const items = [item(51, 1, 2), item(52, 2, 1)];
    const { service, returns, ledger, lifecycle } = setUp({ row: returnRow({ status: 'approved' }), items });
    await service.receive(ctx, 41, {
      items: [
        { returnItemId: 51, quantity: 1, disposition: 'restock' },
        { returnItemId: 51, quantity: 1, disposition: 'damaged' },
      ],
    });
    expect(returns.addReceived).toHaveBeenCalledWith(tx, [{ returnItemId: 51, received: 2, restocked: 1 }]);
    expect(ledger.apply).toHaveBeenCalledWith(
      tx,
      5,
      [{ sizeId: 201, delta: 1, reason: 'return', orderId: 31, returnId: 41, note: 'R-1' }],
      { kind: 'integration_key', id: 9 },
    );
    expect(lifecycle.recordReturned).toHaveBeenCalledWith(tx, expect.anything(), [{ orderItemId: 1, quantity: 2 }]);
    expect(returns.setStatus).toHaveBeenCalledWith(tx, 41, 'partially_received');
  });

  it('marks the return received when every line is complete, with its event', async () => {
    const { service, returns } = setUp({ row: returnRow({ status: 'approved' }), items: [item(51, 1, 2, 1)] });
    await service.receive(ctx, 41, { items: [{ returnItemId: 51, quantity: 1, disposition: 'restock' }] });
    expect(returns.setStatus).toHaveBeenCalledWith(tx, 41, 'received');
    expect(returns.appendEvent).toHaveBeenCalledWith(tx, 41, 'return.received');
  });

  it('refuses more units than a line still expects (422), and a return already closed out (409)', async () => {
    const open = setUp({ row: returnRow({ status: 'approved' }), items: [item(51, 1, 2, 1)] });
    const tooMany = { items: [{ returnItemId: 51, quantity: 2, disposition: 'restock' as const }] };
    expect(((await failure(open.service.receive(ctx, 41, tooMany))) as AppError).status).toBe(422);
    expect(open.ledger.apply).not.toHaveBeenCalled();
    const declined = setUp({ row: returnRow({ status: 'declined' }), items: [item(51, 1, 2)] });
    expect(((await failure(declined.service.receive(ctx, 41, tooMany))) as AppError).status).toBe(409);
  });
});

describe('ReturnsService.refund', () => {
  it('records the refund once, at most the return’s amount', async () => {
    const { service, returns } = setUp({ row: returnRow() });
    expect(((await failure(service.refund(ctx, 41, 2001))) as AppError).status).toBe(400);
    await service.refund(ctx, 41);
    expect(returns.setRefunded).toHaveBeenCalledWith(tx, 41, 2000);
    expect(returns.appendEvent).toHaveBeenCalledWith(tx, 41, 'return.refunded');
  });

  it.each([[{ status: 'declined' }], [{ status: 'canceled' }], [{ refund_status: 'refunded' }]] as Array<
    [Partial<ReturnRow>]
  >)('refuses a refund of a return with %j (409)', async (changes) => {
    const { service, returns } = setUp({ row: returnRow(changes) });
    expect(((await failure(service.refund(ctx, 41))) as AppError).status).toBe(409);
    expect(returns.setRefunded).not.toHaveBeenCalled();
  });
});

describe('ReturnsService.openCarrierReturn', () => {
  it('returns every unit no other return holds, in transit with no refund, once per order', async () => {
    const { service, returns } = setUp({ held: new Map([[1, 1]]) });
    await service.openCarrierReturn(tx, 31);
    expect(returns.insert).toHaveBeenCalledWith(
      tx,
      expect.objectContaining({
        externalReturnId: 'carrier-1031',
        origin: 'carrier',
        status: 'in_transit',
        refundKopeks: 0,
        refundStatus: 'not_required',
        items: [
          expect.objectContaining({ orderItemId: 1, quantity: 1 }),
          expect.objectContaining({ orderItemId: 2, quantity: 1 }),
        ],
      }),
    );
    const again = setUp({});
    again.returns.byExternalId.mockResolvedValue(returnRow({ external_return_id: 'carrier-1031' }));
    await again.service.openCarrierReturn(tx, 31);
    expect(again.returns.insert).not.toHaveBeenCalled();
  });
});
