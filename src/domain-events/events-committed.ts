import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { detached } from '../common/runtime/detached';
import { DatabaseNotifications } from '../database/notifications';

const CHANNEL = 'events_committed';

/** The least time between two notifications from this instance: what a commit may wait to be heard elsewhere. */
export const NOTIFY_GAP_MS = 200;

/**
 * Tells whoever waits for events (the events API's long polls, contract §20) that some have
 * committed, on this instance in memory and on the others by a NOTIFY. Not a NOTIFY in the writing
 * transaction (PostgreSQL would serialise the commits of every one, PERF-23): one after the commit,
 * and at most one per NOTIFY_GAP_MS from this instance, however many commit meanwhile, so a busy
 * writer pays a few small statements a second. A notification names no brand: a waiter reads
 * again to learn whether anything is its own.
 */
@Injectable()
export class EventsCommitted implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('EventsCommitted');
  private readonly listeners = new Set<() => void>();
  private pending = false;
  private timer?: NodeJS.Timeout;
  private lastNotifiedAt = 0;

  constructor(private readonly notifications: DatabaseNotifications) {}

  async onModuleInit(): Promise<void> {
    await this.notifications.listen(CHANNEL, () => this.tellListeners());
  }

  onApplicationShutdown(): void {
    clearTimeout(this.timer);
  }

  /** Calls `listener` on every commit of events heard, here or elsewhere; returns what stops it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Events have committed on this instance. */
  signal(): void {
    this.tellListeners();
    if (this.pending) return;
    this.pending = true;
    const wait = Math.max(0, this.lastNotifiedAt + NOTIFY_GAP_MS - Date.now());
    // Outside the request that committed: the notification is not part of its answer or its trace.
    detached(() => {
      this.timer = setTimeout(() => this.notifyOthers(), wait);
      this.timer.unref();
    });
  }

  private notifyOthers(): void {
    this.pending = false;
    this.lastNotifiedAt = Date.now();
    // This instance's own listeners hear the NOTIFY too; they were told already, and a second
    // word costs a waiter one read at most.
    this.notifications
      .notify(CHANNEL)
      .catch((error: Error) => this.logger.warn(`could not notify the other instances: ${error.message}`));
  }

  private tellListeners(): void {
    for (const listener of this.listeners) listener();
  }
}
