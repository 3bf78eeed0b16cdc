import { Logger } from '@nestjs/common';
import type { OutboxJobs } from '../outbox/outbox-jobs.repository';

/**
 * The lease of one batch of claimed jobs, kept alive while they run. Every quarter of the lease it
 * is renewed for the jobs still held; a job whose row no longer carries the token (another worker
 * took it after a lapse) has its signal aborted, and so has every job once no renewal has
 * succeeded for a whole lease (the database out of reach: another instance may take them). A job
 * is started only while the lease is known to hold, so no job runs on a lease that has run out.
 */
export class JobLease {
  private readonly logger = new Logger('OutboxLease');
  private readonly controllers = new Map<string, AbortController>();
  private validUntil: number;
  private readonly timer: NodeJS.Timeout;

  /** `claimedAt` is a local moment no later than the claim's `now()`: the lease holds at least until it plus the lease. */
  constructor(
    private readonly jobs: OutboxJobs,
    private readonly token: string,
    private readonly leaseSeconds: number,
    jobIds: string[],
    claimedAt: number,
  ) {
    for (const id of jobIds) this.controllers.set(id, new AbortController());
    this.validUntil = claimedAt + leaseSeconds * 1000;
    this.timer = setInterval(() => void this.renew(), Math.max(50, (leaseSeconds * 1000) / 4));
    this.timer.unref();
  }

  /** Whether a job may start now: the lease holds and the job was not lost. */
  holds(jobId: string): boolean {
    return Date.now() < this.validUntil && this.controllers.get(jobId)?.signal.aborted === false;
  }

  signal(jobId: string): AbortSignal {
    return this.controllers.get(jobId)!.signal;
  }

  /** The job is finished (done, failed or lost): stop renewing it. */
  release(jobId: string): void {
    this.controllers.delete(jobId);
    if (this.controllers.size === 0) clearInterval(this.timer);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async renew(): Promise<void> {
    const ids = [...this.controllers.keys()];
    if (ids.length === 0) return;
    const startedAt = Date.now();
    try {
      const stillHeld = new Set(await this.jobs.renew(ids, this.token, this.leaseSeconds));
      this.validUntil = startedAt + this.leaseSeconds * 1000;
      for (const id of ids) if (!stillHeld.has(id)) this.lose(id);
    } catch (error) {
      this.logger.warn({ err: { message: (error as Error).message } }, 'outbox lease renewal failed');
      if (Date.now() >= this.validUntil) for (const id of ids) this.lose(id);
    }
  }

  private lose(jobId: string): void {
    this.controllers.get(jobId)?.abort(new Error('the job lease was lost'));
  }
}
