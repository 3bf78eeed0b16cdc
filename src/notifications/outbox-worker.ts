import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import type { Environment } from '../config/environment';
import { OutboxJobs } from '../outbox/outbox-jobs.repository';
import { JobLease } from './job-lease';
import { ClaimedJob, OutboxHandlers } from './outbox-handlers';
import { Transactions } from '../database/transactions';
import { loggableError } from './loggable-error';
import { IntervalTask } from '../common/runtime/interval-task';

const BATCH = 10;
const FORGET_EVERY_MS = 3_600_000;

/**
 * Runs outbox jobs inside the service, safely in several instances at once: a batch is claimed
 * with FOR UPDATE SKIP LOCKED under a lease (a token and an expiry), its jobs run side by side
 * outside any transaction while the lease is renewed (JobLease), and a job is finished only by
 * the lease holder. A slow carrier or SMTP server therefore never lets a claimed job's lease run
 * out while it waits its turn or runs. A worker that dies leaves a lease that runs out, and the
 * job is taken up again; a finished job is never run again.
 */
@Injectable()
export class OutboxWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxWorker');
  private readonly enabled: boolean;
  private readonly pollMs: number;
  private readonly leaseSeconds: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly giveUpAfterSeconds: number;
  private task?: IntervalTask<number>;
  private stopped = false;
  private lastForget = 0;
  private readonly retentionDays: number;

  constructor(
    private readonly transactions: Transactions,
    private readonly jobs: OutboxJobs,
    private readonly handlers: OutboxHandlers,
    config: ConfigService<Environment, true>,
  ) {
    this.enabled = config.get('OUTBOX_WORKER', { infer: true });
    this.pollMs = config.get('OUTBOX_POLL_MS', { infer: true });
    this.leaseSeconds = config.get('OUTBOX_LEASE_SECONDS', { infer: true });
    this.retryBaseMs = config.get('OUTBOX_RETRY_BASE_MS', { infer: true });
    this.retryMaxMs = config.get('OUTBOX_RETRY_MAX_MS', { infer: true });
    this.giveUpAfterSeconds = config.get('OUTBOX_GIVE_UP_AFTER_SECONDS', { infer: true });
    this.retentionDays = config.get('OUTBOX_RETENTION_DAYS', { infer: true });
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.task = new IntervalTask({
      everyMs: this.pollMs,
      firstAfterMs: 0,
      run: () => this.pass(),
      // A full batch suggests more is waiting: go again at once.
      againAtOnce: (ran) => ran === BATCH,
    });
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.task?.stop();
  }

  /** Delay before retry n (1-based): the base, doubling, capped. */
  backoffMs(attempt: number): number {
    return Math.min(this.retryBaseMs * 2 ** Math.max(0, attempt - 1), this.retryMaxMs);
  }

  /** One pass: claim a batch and run its jobs side by side. Returns how many jobs it claimed. */
  async runOnce(): Promise<number> {
    const token = randomUUID();
    const claimedAt = Date.now();
    const claimed = await this.jobs.claim(token, this.leaseSeconds, BATCH);
    if (claimed.length === 0) return 0;
    const lease = new JobLease(
      this.jobs,
      token,
      this.leaseSeconds,
      claimed.map((job) => job.id),
      claimedAt,
    );
    try {
      await Promise.all(claimed.map((job) => this.runJob(job, token, job.ageSeconds, lease)));
    } finally {
      lease.stop();
    }
    return claimed.length;
  }

  private async runJob(job: ClaimedJob, token: string, ageSeconds: number, lease: JobLease): Promise<void> {
    // Shutting down, or the lease already gone: leave the job for whoever holds it next.
    if (this.stopped || !lease.holds(job.id)) return lease.release(job.id);
    try {
      const commit = await this.handlers.run(job, lease.signal(job.id));
      await this.transactions.run(async (tx) => {
        await commit?.(tx);
        // The lease ran out and another worker owns the job now: leave it to that worker.
        if (!(await this.jobs.finish(tx, job.id, token))) throw new LeaseLost();
      });
    } catch (error) {
      if (error instanceof LeaseLost || lease.signal(job.id).aborted) return;
      await this.recordFailure(job, token, ageSeconds, error instanceof Error ? error.message : String(error));
    } finally {
      lease.release(job.id);
    }
  }

  private async recordFailure(job: ClaimedJob, token: string, ageSeconds: number, message: string): Promise<void> {
    const lastError = message.slice(0, 1000);
    if (ageSeconds >= this.giveUpAfterSeconds) {
      await this.transactions.run(async (tx) => {
        if (await this.jobs.giveUp(tx, job.id, token, lastError)) await this.handlers.giveUp(tx, job, lastError);
      });
      return;
    }
    const delayMs = this.backoffMs(job.attempts);
    this.logger.warn(
      { jobId: job.id, kind: job.kind, attempt: job.attempts, retryInMs: delayMs, error: loggableError(lastError) },
      'outbox job failed',
    );
    await this.jobs.retryLater(job.id, token, delayMs / 1000, lastError);
  }

  /**
   * Done jobs older than OUTBOX_RETENTION_DAYS lose what they may quote of a buyer (contract §17);
   * the number of jobs changed.
   */
  forgetOldCopies(): Promise<number> {
    return this.jobs.forgetDone(this.retentionDays);
  }

  /** One periodic pass: now and then the done jobs' old copies forgotten, then a batch run; how many it claimed. */
  private async pass(): Promise<number> {
    let ran = 0;
    if (Date.now() - this.lastForget >= FORGET_EVERY_MS) {
      this.lastForget = Date.now();
      this.forgetOldCopies().catch((error: Error) =>
        this.logger.warn({ err: { message: error.message } }, 'could not clear done outbox jobs'),
      );
    }
    try {
      ran = await this.runOnce();
    } catch (error) {
      this.logger.error({ err: { message: (error as Error).message } }, 'outbox pass failed');
    }
    return ran;
  }
}

class LeaseLost extends Error {}
