import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { PRUNE_BATCH, pruneInBatches, type PruneBatch } from '../common/runtime/batched-pruning';
import { IntervalTask } from '../common/runtime/interval-task';
import type { Environment } from '../config/environment';
import { EventsRepository } from './events.repository';

/** Arbitrary constant shared by every instance: one prunes the events at a time. */
const PRUNE_LOCK_KEY = 4_120_771_401;
/** The first pruning after a start: soon, but not among the start's own work. */
const FIRST_AFTER_MS = 30_000;

/**
 * Removes the events older than EVENTS_RETENTION_DAYS (contract §16, §21), every
 * EVENTS_PRUNE_SECONDS on each instance, one instance at a time, in batches (pruneInBatches): a
 * pruning never holds the locks of many rows, and the appends of new events never wait for it
 * (an append reads a subject's last event and floor without a lock; the subject's own row lock
 * orders its writers).
 */
@Injectable()
export class EventsPruning implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EventsPruning');
  private task?: IntervalTask<number>;

  constructor(
    private readonly events: EventsRepository,
    private readonly config: ConfigService<Environment, true>,
  ) {}

  onApplicationBootstrap(): void {
    const everyMs = this.config.get('EVENTS_PRUNE_SECONDS', { infer: true }) * 1000;
    if (everyMs === 0) return;
    this.task = new IntervalTask({
      everyMs,
      firstAfterMs: Math.min(FIRST_AFTER_MS, everyMs),
      run: () => this.runOnce(),
    });
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task?.stop();
  }

  /** One pruning: the number of events removed (0 when another instance had it, or it failed). */
  async runOnce(): Promise<number> {
    const days = this.config.get('EVENTS_RETENTION_DAYS', { infer: true });
    try {
      return await pruneInBatches(
        () => this.batch(days),
        () => this.task?.stopped ?? false,
      );
    } catch (error) {
      this.logger.warn(`could not prune events: ${(error as Error).message}`);
      return 0;
    }
  }

  private async batch(days: number): Promise<PruneBatch> {
    const { mine, removed } = await this.events.pruneBatch(PRUNE_LOCK_KEY, days);
    return { removed, more: mine && removed === PRUNE_BATCH };
  }
}
