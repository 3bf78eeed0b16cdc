import type { DataSource, EntityManager } from 'typeorm';
import type { PreparedStatements } from '../database/prepared';
import { DomainEvents } from '../domain-events/domain-events';
import { StockLedger } from './stock-ledger';

/** A ledger whose statement answers each size's new stock; the texts and values it ran are kept. */
const ledgerAnswering = () => {
  const runs: Array<{ text: string; values: unknown[] }> = [];
  const statements = {
    runIn: async (_tx: EntityManager, statement: { text: string }, values: unknown[]) => {
      runs.push({ text: statement.text, values });
      return (values[0] as number[]).map((id) => ({ id, stock: 1, written: 0 }));
    },
  } as unknown as PreparedStatements;
  return {
    ledger: new StockLedger({} as DataSource, statements, new DomainEvents({ signal: () => undefined } as never)),
    runs,
  };
};
const inTransaction = () => ({ queryRunner: { isTransactionActive: true } }) as unknown as EntityManager;
const actor = { kind: 'user', id: 1 };

describe('StockLedger.apply', () => {
  it("records each size's stock event in the statement of the change, with the call's one cause", async () => {
    const { ledger, runs } = ledgerAnswering();
    await ledger.apply(
      inTransaction(),
      3,
      [
        { sizeId: 9, delta: 2, reason: 'return', orderId: 4, returnId: 5 },
        { sizeId: 7, delta: 1, reason: 'return', orderId: 4, returnId: 5 },
        { sizeId: 9, delta: 1, reason: 'return', orderId: 4, returnId: 5 },
      ],
      actor,
    );
    expect(runs[0].text).toContain(`'stock.changed'`);
    expect(runs[0].text).toContain('INSERT INTO domain_events');
    // One total a size, in lock order, and the cause once.
    expect(runs[0].values.slice(0, 2)).toEqual([
      [7, 9],
      [1, 3],
    ]);
    expect(runs[0].values.slice(11)).toEqual(['return', 4, 5]);
  });

  it('refuses changes of several causes, whose events could name only one', async () => {
    const { ledger, runs } = ledgerAnswering();
    await expect(
      ledger.apply(
        inTransaction(),
        3,
        [
          { sizeId: 9, delta: 2, reason: 'acceptance' },
          { sizeId: 7, delta: 1, reason: 'adjustment' },
        ],
        actor,
      ),
    ).rejects.toThrow('several causes');
    expect(runs).toEqual([]);
  });

  it('refuses a second change in one transaction, which would record a second event of a size', async () => {
    const { ledger } = ledgerAnswering();
    const tx = inTransaction();
    await ledger.apply(tx, 3, [{ sizeId: 9, delta: 2, reason: 'adjustment' }], actor);
    await expect(ledger.apply(tx, 3, [{ sizeId: 9, delta: -1, reason: 'adjustment' }], actor)).rejects.toThrow(
      'a second stock change in one transaction',
    );
    await ledger.apply(inTransaction(), 3, [{ sizeId: 9, delta: -1, reason: 'adjustment' }], actor);
  });

  it('runs nothing for no change', async () => {
    const { ledger, runs } = ledgerAnswering();
    expect(await ledger.apply(inTransaction(), 3, [{ sizeId: 9, delta: 0, reason: 'initial' }], actor)).toEqual(
      new Map(),
    );
    expect(runs).toEqual([]);
  });
});
