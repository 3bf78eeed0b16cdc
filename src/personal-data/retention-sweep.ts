import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { systemContext } from '../common/context/request-context';
import { IntervalTask } from '../common/runtime/interval-task';
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
  private task?: IntervalTask<number>;

  constructor(
    private readonly data: PersonalDataRepository,
    private readonly personalData: PersonalDataService,
    private readonly transactions: Transactions,
    private readonly journal: SecurityJournal,
    private readonly config: ConfigService<Environment, true>,
  ) {}

  onApplicationBootstrap(): void {
    const everyMs = this.config.get('PERSONAL_DATA_CHECK_SECONDS', { infer: true }) * 1000;
    this.task = new IntervalTask({
      everyMs,
      // Also soon after start, at a random moment, so instances restarted more often than the period still sweep.
      firstAfterMs: Math.min(everyMs, 5_000 + Math.random() * 55_000),
      run: () => this.sweep(),
    });
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task?.stop();
  }

  /**
   * One sweep, after the one under way if any (a caller asking for a sweep gets one that starts
   * after its request); the number of orders it anonymised.
   */
  async runOnce(): Promise<number> {
    return (await (this.task ? this.task.runNow() : this.sweep())) ?? 0;
  }

  private async sweep(): Promise<number> {
    if (this.task?.stopped) return 0;
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
        if (done < BATCH || this.task?.stopped) return total;
      }
    } catch (error) {
      // The message only: a query error carries its parameters and the row it failed on.
      this.logger.error(`retention sweep failed: ${(error as Error).message}`);
      return total;
    }
  }
}
