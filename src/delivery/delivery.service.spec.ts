import { AppError } from '../common/errors/app-error';
import type { Transactions, Tx } from '../database/transactions';
import type { OrderLifecycle, ShippedOrder } from '../orders/order-lifecycle';
import type { ReturnsService } from '../returns/returns.service';
import { DeliveryService } from './delivery.service';
import type { CarrierEventDto } from './dto/carrier-event.dto';

const tx = {} as Tx;

const shipped: ShippedOrder = {
  id: 21,
  status: 'shipped',
  deliveryStatus: 'in_transit',
  deliveryStatusAt: new Date('2026-01-02T10:00:00Z'),
  recipientEmail: 'buyer@example.com',
};

const event = (changes: Partial<CarrierEventDto> = {}): CarrierEventDto => ({
  eventId: 'c-1',
  carrierOrderUuid: 'uuid-1',
  status: 'delivered',
  occurredAt: '2026-01-02T12:00:00Z',
  ...changes,
});

/** The service on mocks: the order the shipment lock finds, and whether the event is new to the record. */
function setUp(order: ShippedOrder | null, fresh = true) {
  const lifecycle = {
    lockByShipment: jest.fn().mockResolvedValue(order),
    applyCarrierStatus: jest.fn().mockResolvedValue(undefined),
  };
  const events = { record: jest.fn().mockResolvedValue(fresh) };
  const outbox = { enqueue: jest.fn().mockResolvedValue(undefined) };
  const returns = { openCarrierReturn: jest.fn().mockResolvedValue(undefined) };
  const transactions = { run: jest.fn((work: (tx: Tx) => Promise<unknown>) => work(tx)) };
  const service = new DeliveryService(
    transactions as unknown as Transactions,
    events,
    lifecycle as unknown as OrderLifecycle,
    outbox,
    returns as unknown as ReturnsService,
  );
  return { service, lifecycle, events, outbox, returns };
}

describe('DeliveryService', () => {
  it('applies a newer status to the order and mails the recipient once per event', async () => {
    const { service, lifecycle, events, outbox, returns } = setUp(shipped);
    expect(await service.handle(event())).toEqual({ ok: true });
    expect(events.record).toHaveBeenCalledWith(
      tx,
      expect.objectContaining({ flow: 'carrier', orderId: 21, outcome: 'applied' }),
    );
    expect(lifecycle.applyCarrierStatus).toHaveBeenCalledWith(tx, shipped, {
      status: 'delivered',
      occurredAt: new Date('2026-01-02T12:00:00Z'),
      trackingNumber: undefined,
    });
    expect(outbox.enqueue).toHaveBeenCalledWith(tx, [
      {
        kind: 'mail.delivery_status',
        payload: { orderId: 21, status: 'delivered' },
        dedupeKey: 'delivery_status:c-1',
      },
    ]);
    expect(returns.openCarrierReturn).not.toHaveBeenCalled();
  });

  it('records an event no newer than the last one applied as out of order, and changes nothing', async () => {
    const { service, lifecycle, events, outbox } = setUp(shipped);
    expect(await service.handle(event({ occurredAt: '2026-01-02T10:00:00Z' }))).toEqual({ ok: true });
    expect(events.record).toHaveBeenCalledWith(tx, expect.objectContaining({ outcome: 'out_of_order' }));
    expect(lifecycle.applyCarrierStatus).not.toHaveBeenCalled();
    expect(outbox.enqueue).not.toHaveBeenCalled();
  });

  it('answers a repeated event as a duplicate and changes nothing', async () => {
    const { service, lifecycle } = setUp(shipped, false);
    expect(await service.handle(event())).toEqual({ ok: true, duplicate: true });
    expect(lifecycle.applyCarrierStatus).not.toHaveBeenCalled();
  });

  it('answers 404 when no order has the shipment, and records nothing', async () => {
    const { service, events } = setUp(null);
    const error = await service.handle(event()).catch((e: AppError) => e);
    expect((error as AppError).status).toBe(404);
    expect(events.record).not.toHaveBeenCalled();
  });

  it.each(['returned', 'not_delivered'] as const)(
    'opens a carrier return when goods it had come back (%s)',
    async (status) => {
      const { service, returns } = setUp(shipped);
      await service.handle(event({ status }));
      expect(returns.openCarrierReturn).toHaveBeenCalledWith(tx, 21);
    },
  );

  it('opens no return for an order that is not paid or shipped', async () => {
    const { service, returns } = setUp({ ...shipped, status: 'completed' });
    await service.handle(event({ status: 'returned' }));
    expect(returns.openCarrierReturn).not.toHaveBeenCalled();
  });

  it('mails nobody when the status did not change or the order has no e-mail', async () => {
    const same = setUp(shipped);
    await same.service.handle(event({ status: 'in_transit' }));
    expect(same.outbox.enqueue).not.toHaveBeenCalled();
    const noMail = setUp({ ...shipped, recipientEmail: null });
    await noMail.service.handle(event());
    expect(noMail.outbox.enqueue).not.toHaveBeenCalled();
  });
});
