import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { systemContext } from '../common/context/request-context';
import type { Environment } from '../config/environment';
import { Transactions } from '../database/transactions';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { PersonalDataRepository } from './personal-data.repository';
import { PersonalDataService } from './personal-data.service';

const SYSTEM = systemContext('personal-data-retention');
const BATCH = 100;

/**
 * Applies each brand's retention (contract §17) every PERSONAL_DATA_CHECK_SECONDS on every
 * instance. The due orders are locked with SKIP LOCKED and anonymised, marked and journaled in
 * that one transaction, so however many instances sweep at once each order goes once, with one
 * journal entry of its brand's batch.
 */
@Injectable()
export class RetentionSweep implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PersonalDataRetention');
  private timer?: NodeJS.Timeout;
  private first?: NodeJS.Timeout;
  private current: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly data: PersonalDataRepository,
    private readonly personalData: PersonalDataService,
    private readonly transactions: Transactions,
    private readonly journal: SecurityJournal,
    private readonly config: ConfigService<Environment, true>,
  ) {}

  onApplicationBootstrap(): void {
    const everyMs = this.config.get('PERSONAL_DATA_CHECK_SECONDS', { infer: true }) * 1000;
    this.timer = setInterval(() => void this.runOnce(), everyMs);
    this.timer.unref();
    // Also soon after start, at a random moment, so instances restarted more often than the period still sweep.
    this.first = setTimeout(() => void this.runOnce(), Math.min(everyMs, 5_000 + Math.random() * 55_000));
    this.first.unref();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.first) clearTimeout(this.first);
  }

  /**
   * One sweep, after the one under way if any (a caller asking for a sweep gets one that starts
   * after its request); the number of orders it anonymised.
   */
  runOnce(): Promise<number> {
    const next = this.current.then(() => this.sweep());
    this.current = next.catch(() => 0);
    return next;
  }

  private async sweep(): Promise<number> {
    if (this.stopped) return 0;
    let total = 0;
    try {
      for (;;) {
        const done = await this.transactions.run(async (tx) => {
          const due = await this.data.lockDueForRetention(tx, BATCH);
          const byBrand = new Map<number, number[]>();
          for (const order of due) byBrand.set(order.brandId, [...(byBrand.get(order.brandId) ?? []), order.id]);
          for (const [brandId, erased] of byBrand) {
            await this.personalData.anonymise(tx, erased);
            await this.journal.recordWith(tx, SYSTEM, {
              type: 'personal_data_erased',
              brandId,
              details: { by: 'retention', erased, kept: [] },
            });
          }
          return due.length;
        });
        total += done;
        if (done < BATCH || this.stopped) return total;
      }
    } catch (error) {
      // The message only: a query error carries its parameters and the row it failed on.
      this.logger.error(`retention sweep failed: ${(error as Error).message}`);
      return total;
    }
  }
}
