import { SuccessBatch, type Success } from './success-batch';

const success = (id: string): Success => ({
  deliveryId: id,
  token: 't',
  attempt: { status: 200, durationMs: 1, error: null, body: '' },
});

describe('SuccessBatch', () => {
  it('writes what gathered within the wait in one call, and tells each whether it was still held', async () => {
    const calls: string[][] = [];
    const batch = new SuccessBatch(
      async (entries) => {
        calls.push(entries.map((e) => e.deliveryId));
        return entries.map((e) => e.deliveryId).filter((id) => id !== 'lost');
      },
      100,
      20,
    );
    const answers = await Promise.all([batch.add(success('1')), batch.add(success('lost')), batch.add(success('2'))]);
    expect(calls).toEqual([['1', 'lost', '2']]);
    expect(answers).toEqual([true, false, true]);
  });

  it('writes at once when full, and fails every waiter when the write fails', async () => {
    const calls: number[] = [];
    const full = new SuccessBatch(
      async (entries) => (calls.push(entries.length), entries.map((e) => e.deliveryId)),
      2,
      10_000,
    );
    await Promise.all([full.add(success('a')), full.add(success('b'))]);
    expect(calls).toEqual([2]);
    const broken = new SuccessBatch(async () => Promise.reject(new Error('down')), 10, 5);
    await expect(broken.add(success('x'))).rejects.toThrow('down');
  });
});
