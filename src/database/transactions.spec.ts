import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';
import { retryDeadlocks, Transactions } from './transactions';

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

describe('retryDeadlocks', () => {
  const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });
  /** A transaction that fails with the given errors, one per try, then commits. */
  const failing = (...errors: Error[]) => {
    const attempt = jest.fn(async () => {
      const error = errors.shift();
      if (error) throw error;
      return 'committed';
    });
    return attempt;
  };

  it.each([
    ['as pg raises it', deadlock()],
    ['wrapped by TypeORM', new QueryFailedError('UPDATE product_sizes …', [], deadlock())],
  ])('runs a deadlock victim again, %s', async (_how, error) => {
    const attempt = failing(error);
    await expect(retryDeadlocks(attempt)).resolves.toBe('committed');
    expect(attempt).toHaveBeenCalledTimes(2);
  });

  it('gives up after three tries and throws the last deadlock', async () => {
    const last = deadlock();
    const attempt = failing(deadlock(), deadlock(), last);
    await expect(retryDeadlocks(attempt)).rejects.toBe(last);
    expect(attempt).toHaveBeenCalledTimes(3);
  });

  it.each([
    ['a serialization failure', Object.assign(new Error('could not serialize'), { code: '40001' })],
    [
      'a unique violation',
      new QueryFailedError('INSERT …', [], Object.assign(new Error('duplicate key'), { code: '23505' })),
    ],
    ['an error that is no database error', new Error('boom')],
  ])('never runs again after %s', async (_what, error) => {
    const attempt = failing(error);
    await expect(retryDeadlocks(attempt)).rejects.toBe(error);
    expect(attempt).toHaveBeenCalledTimes(1);
  });
});
