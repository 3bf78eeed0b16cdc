import type { DataSource, EntityManager } from 'typeorm';
import type { PreparedStatements } from '../database/prepared';
import type { Outbox } from '../outbox/outbox';
import type { StockLedger } from '../stock-ledger/stock-ledger';
import { DomainEvents } from '../domain-events/domain-events';
import { OrderLifecycle, type PayableOrder } from './order-lifecycle';
import { OrdersRepository } from './orders.repository';
import type { EventsCommitted } from '../domain-events/events-committed';

/** These specs build statements; nothing waits for their events. */
const UNHEARD = { signal: () => undefined } as unknown as EventsCommitted;

const order = (over: Partial<PayableOrder>): PayableOrder => ({
  id: 7,
  brandId: 1,
  orderNumber: '100007',
  status: 'new',
  totalKopeks: 100,
  paid: false,
  stockDeducted: false,
  registeredWithCarrier: false,
  recipientEmail: null,
  ...over,
});

describe('OrderLifecycle.markPaid', () => {
  const statements: string[] = [];
  const tx = { query: async (sql: string) => (statements.push(sql), []) } as unknown as EntityManager;
  const ledger = { apply: jest.fn(async () => new Map([[1, 3]])) };
  const outbox = { enqueue: async () => undefined } as unknown as Outbox;
  const orders = new OrdersRepository({} as DataSource, {} as PreparedStatements, new DomainEvents(UNHEARD));
  const lifecycle = new OrderLifecycle(orders, ledger as unknown as StockLedger, outbox);
  beforeEach(() => {
    statements.length = 0;
    ledger.apply.mockClear();
  });

  it('moves a new order to paid', async () => {
    await lifecycle.markPaid(tx, order({}), new Date());
    expect(statements.some((sql) => sql.includes('UPDATE orders'))).toBe(true);
    expect(ledger.apply).toHaveBeenCalledTimes(1);
  });

  it.each(['cancelled', 'returned', 'completed'] as const)(
    'refuses a %s order with a 409 and writes nothing, stock included',
    async (status) => {
      await expect(lifecycle.markPaid(tx, order({ status }), new Date())).rejects.toMatchObject({ status: 409 });
      expect(statements.filter((sql) => sql.includes('UPDATE orders'))).toEqual([]);
      expect(ledger.apply).not.toHaveBeenCalled();
    },
  );
});
