import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import type { Transactions, Tx } from '../database/transactions';
import type { OrderLifecycle, PayableOrder } from '../orders/order-lifecycle';
import type { SecurityJournal } from '../security-journal/security-journal.service';
import type { PaymentEventDto } from './dto/payment-event.dto';
import { PaymentsService } from './payments.service';

const tx = {} as Tx;
const ctx = { requestId: 'r-1' } as unknown as RequestContext;

const unpaid: PayableOrder = {
  id: 11,
  brandId: 3,
  orderNumber: '1001',
  status: 'new',
  totalKopeks: 5000,
  paid: false,
  stockDeducted: true,
  registeredWithCarrier: false,
  recipientEmail: null,
};

const event = (changes: Partial<PaymentEventDto> = {}): PaymentEventDto => ({
  eventId: 'evt-1',
  orderNumber: ' 1001 ',
  amountKopeks: 5000,
  status: 'succeeded',
  paidAt: '2026-01-02T03:04:05Z',
  ...changes,
});

/** The service on mocks: the order the lock finds, and whether the event is new to the record. */
function setUp(order: PayableOrder | null, fresh = true) {
  const lifecycle = {
    lockByNumber: jest.fn().mockResolvedValue(order),
    markPaid: jest.fn().mockResolvedValue(undefined),
  };
  const events = { record: jest.fn().mockResolvedValue(fresh) };
  const journal = { recordWith: jest.fn().mockResolvedValue(undefined) };
  const transactions = { run: jest.fn((work: (tx: Tx) => Promise<unknown>) => work(tx)) };
  const service = new PaymentsService(
    transactions as unknown as Transactions,
    events,
    lifecycle as unknown as OrderLifecycle,
    journal as unknown as SecurityJournal,
  );
  return { service, lifecycle, events, journal };
}

describe('PaymentsService', () => {
  it('marks an unpaid order paid at the bank’s time, and records the event as paid', async () => {
    const { service, lifecycle, events, journal } = setUp(unpaid);
    expect(await service.handle(ctx, event())).toEqual({ ok: true });
    expect(lifecycle.lockByNumber).toHaveBeenCalledWith(tx, '1001');
    expect(events.record).toHaveBeenCalledWith(
      tx,
      expect.objectContaining({ flow: 'payment', orderId: 11, outcome: 'paid' }),
    );
    expect(lifecycle.markPaid).toHaveBeenCalledWith(tx, unpaid, new Date('2026-01-02T03:04:05Z'));
    expect(journal.recordWith).not.toHaveBeenCalled();
  });

  it('answers 404 for an unknown order and records nothing, so the bank’s retry can still apply', async () => {
    const { service, events } = setUp(null);
    const error = await service.handle(ctx, event()).catch((e: AppError) => e);
    expect((error as AppError).status).toBe(404);
    expect(events.record).not.toHaveBeenCalled();
  });

  it('answers a repeated event as a duplicate and changes nothing', async () => {
    const { service, lifecycle, journal } = setUp(unpaid, false);
    expect(await service.handle(ctx, event())).toEqual({ ok: true, duplicate: true });
    expect(lifecycle.markPaid).not.toHaveBeenCalled();
    expect(journal.recordWith).not.toHaveBeenCalled();
  });

  it('journals an amount that is not the order’s total and leaves the order unpaid', async () => {
    const { service, lifecycle, events, journal } = setUp(unpaid);
    await service.handle(ctx, event({ amountKopeks: 4999 }));
    expect(events.record).toHaveBeenCalledWith(tx, expect.objectContaining({ outcome: 'amount_mismatch' }));
    expect(journal.recordWith).toHaveBeenCalledWith(
      tx,
      ctx,
      expect.objectContaining({
        type: 'payment_amount_mismatch',
        brandId: 3,
        details: expect.objectContaining({ expectedKopeks: 5000, receivedKopeks: 4999 }),
      }),
    );
    expect(lifecycle.markPaid).not.toHaveBeenCalled();
  });

  it('journals a payment for a cancelled order, whatever its amount, and moves nothing', async () => {
    const { service, lifecycle, events, journal } = setUp({ ...unpaid, status: 'cancelled' });
    await service.handle(ctx, event({ amountKopeks: 1 }));
    expect(events.record).toHaveBeenCalledWith(tx, expect.objectContaining({ outcome: 'order_cancelled' }));
    expect(journal.recordWith).toHaveBeenCalledWith(
      tx,
      ctx,
      expect.objectContaining({ type: 'payment_for_cancelled_order' }),
    );
    expect(lifecycle.markPaid).not.toHaveBeenCalled();
  });

  const paid: PayableOrder = { ...unpaid, status: 'paid', paid: true };
  it.each([
    ['a failed payment', unpaid, event({ status: 'failed' }), 'failed'],
    ['a second payment of a paid order', paid, event(), 'already_paid'],
  ])('records %s and moves nothing', async (_, order, payment, outcome) => {
    const { service, lifecycle, events, journal } = setUp(order);
    expect(await service.handle(ctx, payment)).toEqual({ ok: true });
    expect(events.record).toHaveBeenCalledWith(tx, expect.objectContaining({ outcome }));
    expect(lifecycle.markPaid).not.toHaveBeenCalled();
    expect(journal.recordWith).not.toHaveBeenCalled();
  });
});
