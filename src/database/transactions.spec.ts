import type { DataSource, EntityManager } from 'typeorm';
import { Transactions } from './transactions';

/** TypeORM's transaction as it behaves: the work's result once it committed, its error once it rolled back. */
function dataSource(events: string[]): DataSource {
  return {
    transaction: async (work: (tx: EntityManager) => Promise<unknown>) => {
      const tx = {} as EntityManager;
      try {
        const result = await work(tx);
        events.push('commit');
        return result;
      } catch (error) {
        events.push('rollback');
        throw error;
      }
    },
  } as unknown as DataSource;
}

describe('Transactions.afterCommit', () => {
  it('runs the hooks after the commit, in order, and returns the work’s result', async () => {
    const events: string[] = [];
    const result = await new Transactions(dataSource(events)).run(async (tx) => {
      Transactions.afterCommit(tx, () => events.push('first'));
      Transactions.afterCommit(tx, () => events.push('second'));
      events.push('work');
      return 42;
    });
    expect(result).toBe(42);
    expect(events).toEqual(['work', 'commit', 'first', 'second']);
  });

  it('never runs them when the transaction rolls back', async () => {
    const events: string[] = [];
    const failing = new Transactions(dataSource(events)).run(async (tx) => {
      Transactions.afterCommit(tx, () => events.push('hook'));
      throw new Error('conflict');
    });
    await expect(failing).rejects.toThrow('conflict');
    expect(events).toEqual(['rollback']);
  });

  it('runs a hook at once for a handle outside any transaction (its statements commit as they run)', () => {
    const events: string[] = [];
    Transactions.afterCommit({} as EntityManager, () => events.push('hook'));
    expect(events).toEqual(['hook']);
  });
});
