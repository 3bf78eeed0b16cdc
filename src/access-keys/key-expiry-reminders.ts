import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { systemContext } from '../common/context/request-context';
import { IntervalTask } from '../common/runtime/interval-task';
import type { Environment } from '../config/environment';
import { Transactions } from '../database/transactions';
import { Outbox } from '../outbox/outbox';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { IntegrationKeysRepository } from './integration-keys.repository';

const SYSTEM = systemContext('key-expiry-reminders');

/**
 * Tells a brand's staff that a key will expire, 7 days and 1 day before (contract §12). Every
 * instance runs the check every KEY_EXPIRY_CHECK_SECONDS; claiming a reminder is an UPDATE of the
 * key's row, committed with its journal entry and its mail job (sent by the outbox), so each
 * reminder goes out once whatever the number of instances.
 */
@Injectable()
export class KeyExpiryReminders implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('KeyExpiryReminders');
  private task?: IntervalTask<number>;

  constructor(
    private readonly keys: IntegrationKeysRepository,
    private readonly transactions: Transactions,
    private readonly journal: SecurityJournal,
    private readonly outbox: Outbox,
    private readonly config: ConfigService<Environment, true>,
  ) {}

  onApplicationBootstrap(): void {
    const everyMs = this.config.get('KEY_EXPIRY_CHECK_SECONDS', { infer: true }) * 1000;
    this.task = new IntervalTask({ everyMs, run: () => this.runOnce() });
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task?.stop();
  }

  /** One check; the number of reminders it sent. */
  async runOnce(): Promise<number> {
    try {
      let sent = 0;
      for (const window of ['1d', '7d'] as const) {
        sent += await this.transactions.run(async (tx) => {
          const due = await this.keys.claimReminders(tx, window);
          for (const key of due) {
            const details = {
              keyId: key.id,
              name: key.name,
              keyHint: key.key_hint,
              expiresAt: key.expires_at.toISOString(),
              window,
            };
            await this.journal.recordWith(tx, SYSTEM, {
              type: 'integration_key_expiring',
              brandId: key.brand_id,
              details,
            });
            await this.outbox.enqueue(tx, [
              {
                kind: 'mail.staff_key_expiring',
                payload: { brandId: key.brand_id, ...details },
                dedupeKey: `key_expiring:${key.id}:${window}`,
              },
            ]);
          }
          return due.length;
        });
      }
      return sent;
    } catch (error) {
      this.logger.warn(`key expiry check failed: ${(error as Error).message}`);
      return 0;
    }
  }
}
