import type { AttemptRecord } from './webhook-deliveries.repository';

export interface Success {
  deliveryId: string;
  token: string;
  attempt: AttemptRecord;
}

/**
 * Gathers successful attempts and writes them in one statement: when `size` are waiting or
 * `waitMs` after the first, whichever comes first. At hundreds of deliveries a second this turns
 * a round trip per delivery into one per batch; a delivery's slot stays taken at most `waitMs`
 * longer.
 */
export class SuccessBatch {
  private waiting: Array<Success & { done: (held: boolean) => void; fail: (error: unknown) => void }> = [];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly write: (batch: Success[]) => Promise<string[]>,
    private readonly size = 100,
    // Long enough to gather several successes at hundreds a second (PERF-26), short beside the receivers' answers.
    private readonly waitMs = 20,
  ) {}

  /** Resolves once written: true when the worker still held the delivery. */
  add(success: Success): Promise<boolean> {
    return new Promise<boolean>((done, fail) => {
      this.waiting.push({ ...success, done, fail });
      if (this.waiting.length >= this.size) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), this.waitMs);
    });
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) return;
    try {
      const held = new Set(await this.write(batch));
      for (const entry of batch) entry.done(held.has(entry.deliveryId));
    } catch (error) {
      for (const entry of batch) entry.fail(error);
    }
  }
}
