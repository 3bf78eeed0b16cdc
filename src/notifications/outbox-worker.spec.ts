import type { ConfigService } from '@nestjs/config';
import type { Transactions } from '../database/transactions';
import type { Environment } from '../config/environment';
import type { OutboxJobs } from '../outbox/outbox-jobs.repository';
import type { OutboxHandlers } from './outbox-handlers';
import { OutboxWorker } from './outbox-worker';

const defaults: Record<string, unknown> = {
  OUTBOX_WORKER: false,
  OUTBOX_POLL_MS: 1000,
  OUTBOX_LEASE_SECONDS: 60,
  OUTBOX_RETRY_BASE_MS: 5000,
  OUTBOX_RETRY_MAX_MS: 300_000,
  OUTBOX_GIVE_UP_AFTER_SECONDS: 86_400,
};

describe('OutboxWorker.backoffMs (contract §7: first retry within 5 s, doubling up to 5 minutes)', () => {
  const worker = new OutboxWorker(
    {} as Transactions,
    {} as OutboxJobs,
    {} as OutboxHandlers,
    { get: (key: string) => defaults[key] } as unknown as ConfigService<Environment, true>,
  );

  it('waits 5 s before the first retry and doubles after each failure', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => worker.backoffMs(attempt))).toEqual([
      5000, 10000, 20000, 40000, 80000, 160000, 300000,
    ]);
  });

  it('never waits more than 5 minutes', () => {
    expect(worker.backoffMs(50)).toBe(300_000);
  });

  it('retries for 24 hours: about 290 attempts at the cap', () => {
    let elapsed = 0;
    let attempt = 0;
    while (elapsed < 86_400_000) elapsed += worker.backoffMs(++attempt);
    expect(attempt).toBeGreaterThan(280);
    expect(attempt).toBeLessThan(300);
  });
});
