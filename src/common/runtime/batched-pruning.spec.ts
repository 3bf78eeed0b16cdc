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

  it("runs one batch at a time of all the process's prunings, each followed by its pause", async () => {
    const spans: Array<[number, number]> = [];
    const pruning = (batches: number) => {
      let left = batches;
      return pruneInBatches(async () => {
        const start = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 10));
        spans.push([start, Date.now()]);
        return { removed: 1, more: --left > 0 };
      });
    };
    expect(await Promise.all([pruning(3), pruning(3), pruning(2)])).toEqual([3, 3, 2]);
    spans.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) {
      expect(spans[i][0] - spans[i - 1][1]).toBeGreaterThanOrEqual(PRUNE_PAUSE_MS - 2);
    }
  });

  it('runs no batch when the instance began to stop while waiting for its turn', async () => {
    let stopping = false;
    let calls = 0;
    const first = pruneInBatches(async () => {
      calls++;
      stopping = true;
      return { removed: 1, more: false };
    });
    const second = pruneInBatches(
      async () => ({ removed: ++calls, more: false }),
      () => stopping,
    );
    expect(await Promise.all([first, second])).toEqual([1, 0]);
    expect(calls).toBe(1);
  });
});
