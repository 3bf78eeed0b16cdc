import { PRUNE_PAUSE_FACTOR, PRUNE_PAUSE_MS, pruneInBatches } from './batched-pruning';

describe('pruneInBatches', () => {
  it('runs batches until one says nothing more waits, and adds up what they removed', async () => {
    const results = [
      { removed: 3, more: true },
      { removed: 2, more: true },
      { removed: 1, more: false },
    ];
    let calls = 0;
    expect(await pruneInBatches(async () => results[calls++])).toBe(6);
    expect(calls).toBe(3);
  });

  it('stops after the batch under way once the instance is stopping', async () => {
    let calls = 0;
    const removed = await pruneInBatches(
      async () => ({ removed: ++calls, more: true }),
      () => calls >= 2,
    );
    expect(removed).toBe(3);
  });

  it('waits between batches at least its pause, and longer after a long batch', async () => {
    const starts: number[] = [];
    const slow = 30;
    await pruneInBatches(async () => {
      starts.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, slow));
      return { removed: 1, more: starts.length < 2 };
    });
    // The second batch starts after the first one's time and its pause of PRUNE_PAUSE_FACTOR times it.
    expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(Math.max(PRUNE_PAUSE_MS, slow * (1 + PRUNE_PAUSE_FACTOR)) - 5);
  });
});
