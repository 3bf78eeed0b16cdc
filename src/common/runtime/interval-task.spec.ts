import { IntervalTask } from './interval-task';

describe('IntervalTask', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A run that ends when `finish` is called, counting starts and the most at once. */
  function slowTask() {
    const state = { starts: 0, running: 0, most: 0, finish: [] as Array<() => void> };
    const run = () =>
      new Promise<void>((resolve) => {
        state.starts++;
        state.running++;
        state.most = Math.max(state.most, state.running);
        state.finish.push(() => {
          state.running--;
          resolve();
        });
      });
    return { state, run };
  }

  it('runs first after firstAfterMs, then every everyMs, a long run followed at once, never two at once', async () => {
    const { state, run } = slowTask();
    const task = new IntervalTask({ everyMs: 1000, firstAfterMs: 100, run });
    task.start();
    await jest.advanceTimersByTimeAsync(99);
    expect(state.starts).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(state.starts).toBe(1);
    // A run that takes long delays the next rather than overlapping it; one asked for meanwhile waits for it.
    await jest.advanceTimersByTimeAsync(5000);
    expect(state.starts).toBe(1);
    void task.runNow();
    state.finish.shift()!();
    await jest.advanceTimersByTimeAsync(0);
    expect(state.starts).toBe(2);
    // The long first run took over everyMs: the next periodic run follows the asked-for one at once.
    state.finish.shift()!();
    await jest.advanceTimersByTimeAsync(0);
    expect(state.starts).toBe(3);
    // A quick run: the next starts everyMs after it started.
    state.finish.shift()!();
    await jest.advanceTimersByTimeAsync(999);
    expect(state.starts).toBe(3);
    await jest.advanceTimersByTimeAsync(1);
    expect(state.starts).toBe(4);
    expect(state.most).toBe(1);
    state.finish.shift()!();
    await task.stop();
  });

  it('runs again at once while a run says more is waiting', async () => {
    const results = [5, 5, 2, 1];
    let runs = 0;
    const task = new IntervalTask<number>({
      everyMs: 1000,
      firstAfterMs: 0,
      run: () => Promise.resolve(results[runs++]),
      againAtOnce: (done) => done === 5,
    });
    task.start();
    await jest.advanceTimersByTimeAsync(10);
    expect(runs).toBe(3);
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(4);
    await task.stop();
  });

  it('goes on after a run fails', async () => {
    let runs = 0;
    const task = new IntervalTask({ everyMs: 10, run: () => Promise.reject(new Error(`failure ${++runs}`)) });
    task.start();
    await jest.advanceTimersByTimeAsync(35);
    expect(runs).toBe(3);
    await task.stop();
  });

  it('stop() waits for the run under way and starts none after it', async () => {
    const { state, run } = slowTask();
    const task = new IntervalTask({ everyMs: 10, run });
    task.start();
    await jest.advanceTimersByTimeAsync(10);
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    expect(task.stopped).toBe(true);
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    state.finish.shift()!();
    await stopping;
    await jest.advanceTimersByTimeAsync(100);
    await task.runNow();
    expect(state.starts).toBe(1);
  });

  it('soon() runs after its delay, once for wake-ups close together, and after the run under way', async () => {
    const { state, run } = slowTask();
    const task = new IntervalTask({ everyMs: 60_000, run });
    task.start();
    task.soon(20);
    task.soon(20);
    await jest.advanceTimersByTimeAsync(19);
    expect(state.starts).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(state.starts).toBe(1);
    // Wake-ups during the run: one run after it, not one each.
    task.soon(20);
    await jest.advanceTimersByTimeAsync(20);
    task.soon(20);
    await jest.advanceTimersByTimeAsync(20);
    expect(state.starts).toBe(1);
    state.finish.shift()!();
    await jest.advanceTimersByTimeAsync(0);
    expect(state.starts).toBe(2);
    expect(state.most).toBe(1);
    state.finish.shift()!();
    await jest.advanceTimersByTimeAsync(100);
    expect(state.starts).toBe(2);
    await task.stop();
    task.soon(0);
    await jest.advanceTimersByTimeAsync(100);
    expect(state.starts).toBe(2);
  });
});
