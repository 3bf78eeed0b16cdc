import { FixedWindowStorage } from './fixed-window-storage';

describe('FixedWindowStorage', () => {
  afterEach(() => jest.useRealTimers());

  it('allows the limit within a window, blocks above it, and starts afresh in the next window', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const storage = new FixedWindowStorage();
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await storage.increment('k', 1000, 3));
    expect(results.map((r) => r.isBlocked)).toEqual([false, false, false, true]);
    expect(results[3]).toMatchObject({ totalHits: 4, timeToBlockExpire: 1 });
    jest.setSystemTime(1_001_000);
    expect((await storage.increment('k', 1000, 3)).isBlocked).toBe(false);
    storage.onApplicationShutdown();
  });

  it('counts keys apart', async () => {
    const storage = new FixedWindowStorage();
    await storage.increment('a', 1000, 1);
    expect((await storage.increment('b', 1000, 1)).isBlocked).toBe(false);
    expect((await storage.increment('a', 1000, 1)).isBlocked).toBe(true);
    storage.onApplicationShutdown();
  });
});
