import { serialize } from 'node:v8';
import type { EntityManager } from 'typeorm';
import { IdempotencyRecord } from './idempotency-record';
import type { IdempotencyRepository } from './idempotency.repository';

const claim = { scope: 'integration_key:1', key: 'k', claimId: 'c' };
const effect = (tag: string, result: unknown) => serialize({ tag, result });

function recordOf(effects: Buffer[]) {
  const recorded: Buffer[] = [];
  const keys = {
    record: (_tx: EntityManager, _scope: string, _key: string, _claim: string, entry: Buffer) => {
      recorded.push(entry);
      return Promise.resolve();
    },
  } as unknown as IdempotencyRepository;
  return { record: new IdempotencyRecord(keys, claim, effects), recorded };
}

describe('IdempotencyRecord', () => {
  it('gives back what an abandoned run committed, in order, with Maps and Dates intact', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const { record } = recordOf([effect('transaction', new Map([[7, 3]])), effect('transaction', { at })]);
    expect(record.replay('transaction')).toEqual({ result: new Map([[7, 3]]) });
    expect(record.replay('transaction')).toEqual({ result: { at } });
    expect(record.replay('transaction')).toBeUndefined();
  });

  it('finds a tagged write past one of another tag that a different path skipped', () => {
    const { record } = recordOf([effect('cheap_form', { outcome: 'listens' }), effect('full_form', { id: 1 })]);
    expect(record.replay('full_form')).toEqual({ result: { id: 1 } });
    expect(record.replay('cheap_form')).toBeUndefined();
  });

  it('records each write, and neither records nor replays once the request has answered', async () => {
    const { record, recorded } = recordOf([effect('transaction', 1)]);
    await record.record({} as EntityManager, 'transaction', 2);
    expect(recorded).toEqual([effect('transaction', 2)]);
    record.close();
    expect(record.replay('transaction')).toBeUndefined();
    await record.record({} as EntityManager, 'transaction', 3);
    expect(recorded).toHaveLength(1);
  });
});
