import { BeforeApplicationShutdown, Injectable, OnModuleDestroy } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { EventsCommitted } from '../domain-events/events-committed';

/** After a commit was heard and nothing was readable (an older transaction may hold the horizon): how often to read again. */
export const RECHECK_MS = 1_000;
/** With nothing heard: a notification lost with the listening connection costs at most this. */
export const FALLBACK_MS = 5_000;
/** The least time between two reads of one wait, however fast commits of other brands arrive. */
export const READ_GAP_MS = 100;

/**
 * Long polls on the events API (contract §20): a request waits for a commit of events, on any
 * instance (EventsCommitted), and reads again. Waiting is a promise, not a query: no database
 * connection is held meanwhile. At shutdown every wait ends at once with what it has (nothing), so
 * the server closes without waiting out the longest poll.
 */
@Injectable()
export class EventWaits implements BeforeApplicationShutdown, OnModuleDestroy {
  private readonly sleepers = new Set<(heard: boolean) => void>();
  /** Commits heard so far: a wait compares it with what it saw before its last read, so none is missed in between. */
  private heardCount = 0;
  private readonly unsubscribe: () => void;
  private stopping = false;

  constructor(committed: EventsCommitted) {
    this.unsubscribe = committed.subscribe(() => {
      this.heardCount += 1;
      this.wake(true);
    });
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
    this.wake(false);
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }

  /** What to pass to `until` as `since`: taken before the read that gave nothing. */
  mark(): number {
    return this.heardCount;
  }

  /**
   * What `read` gives (having given nothing in a read begun at `since`, from mark()), read again
   * after each commit heard until it gives something, `deadline` (epoch ms) passes, `abandoned`
   * aborts or the service stops. A commit heard while a read runs counts as heard after it.
   */
  async until<T>(read: () => Promise<T[]>, deadline: number, abandoned: AbortSignal, since: number): Promise<T[]> {
    let heard = false;
    let seen = since;
    let lastRead = Date.now();
    while (!this.stopping && !abandoned.aborted) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      // Once a commit was heard and read nothing, an older transaction holds the horizon: read
      // every RECHECK_MS until it lets the event through, however long it holds.
      const woke: boolean =
        this.heardCount !== seen || (await this.sleep(Math.min(left, heard ? RECHECK_MS : FALLBACK_MS), abandoned));
      heard ||= woke;
      if (this.stopping || abandoned.aborted) break;
      const gap = lastRead + READ_GAP_MS - Date.now();
      if (gap > 0) await sleep(gap);
      seen = this.heardCount;
      const rows = await read();
      if (rows.length > 0) return rows;
      lastRead = Date.now();
    }
    return [];
  }

  /** Resolves true at the next commit heard, false after `ms`, on abandon or at shutdown. */
  private sleep(ms: number, abandoned: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (heard: boolean) => {
        clearTimeout(timer);
        abandoned.removeEventListener('abort', onAbort);
        this.sleepers.delete(done);
        resolve(heard);
      };
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      abandoned.addEventListener('abort', onAbort);
      this.sleepers.add(done);
    });
  }

  private wake(heard: boolean): void {
    for (const done of [...this.sleepers]) done(heard);
  }
}
