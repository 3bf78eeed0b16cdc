/** What a periodic task runs and when. */
export interface IntervalTaskOptions<T> {
  /** How often a run starts; one that takes longer is followed at once by the next, never overlapped. */
  everyMs: number;
  /** The first run's delay after start (default: everyMs). */
  firstAfterMs?: number;
  /** One run; a failure is the task's own to report (it is caught, and the task goes on). */
  run: () => Promise<T>;
  /** True when a run's result says more is waiting (a full batch): the next run starts at once. */
  againAtOnce?: (result: T | undefined) => boolean;
}

/**
 * A task run every so often by one instance, for the workers that poll the database: runs never
 * overlap (each next one is scheduled when the last has ended, everyMs after it started or at once
 * when it took longer, and one asked for meanwhile waits its turn), and stop() lets the run under
 * way end and starts none after it. Safe with several
 * instances exactly as the task itself is: this only says when it runs here. The timers hold no
 * process open.
 */
export class IntervalTask<T = unknown> {
  private timer?: NodeJS.Timeout;
  private soonTimer?: NodeJS.Timeout;
  private current: Promise<unknown> = Promise.resolve();
  /** The run asked for that has not started yet: asking again meanwhile is the same run. */
  private queued?: Promise<T | undefined>;
  private stopping = false;

  constructor(private readonly options: IntervalTaskOptions<T>) {}

  start(): void {
    this.schedule(this.options.firstAfterMs ?? this.options.everyMs);
  }

  /** True once stop() was called: a long run may end early. */
  get stopped(): boolean {
    return this.stopping;
  }

  /**
   * A run now, after the one under way if any (one already waiting for it is this one): its
   * result, or undefined once stopped or when it failed.
   */
  runNow(): Promise<T | undefined> {
    if (this.queued) return this.queued;
    const next = this.current.then(() => {
      this.queued = undefined;
      return this.stopping ? undefined : this.options.run().catch(() => undefined);
    });
    this.queued = next;
    this.current = next;
    return next;
  }

  /**
   * A run in `delayMs` (something to do has come, from elsewhere than the schedule), unless one is
   * already due that soon: wake-ups close together share one run.
   */
  soon(delayMs: number): void {
    if (this.stopping || this.soonTimer) return;
    this.soonTimer = setTimeout(() => {
      this.soonTimer = undefined;
      void this.runNow();
    }, delayMs);
    this.soonTimer.unref();
  }

  /** No run after the one under way, which is waited for. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    clearTimeout(this.soonTimer);
    await this.current;
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      const started = Date.now();
      void this.runNow().then((result) =>
        this.schedule(
          this.options.againAtOnce?.(result) ? 0 : Math.max(0, this.options.everyMs - (Date.now() - started)),
        ),
      );
    }, delayMs);
    this.timer.unref();
  }
}
