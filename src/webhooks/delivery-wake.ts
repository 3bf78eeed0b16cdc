import { Injectable, Logger } from '@nestjs/common';
import { detached } from '../common/runtime/detached';
import { DatabaseNotifications } from '../database/notifications';
import { outsideRequestCommits } from '../database/request-commits';
import { Transactions, type Tx } from '../database/transactions';
import { WebhookDispatcher } from './webhook-dispatcher';

/**
 * Tells the workers that deliveries have committed, so the first message of a quiet endpoint
 * does not wait for the next poll. This instance's own worker is woken in memory; only when it
 * runs none or has no room does a NOTIFY reach the others. Not a NOTIFY in the writing
 * transaction: PostgreSQL serialises the commits of notifying transactions, which cost the
 * storefront webhook orders while an endpoint listened (docs/performance.md, PERF-23).
 */
@Injectable()
export class DeliveryWake {
  private readonly logger = new Logger('DeliveryWake');
  private notifying = false;
  private notifyAgain = false;

  constructor(
    private readonly dispatcher: WebhookDispatcher,
    private readonly notifications: DatabaseNotifications,
  ) {}

  /** Deliveries have committed (a statement outside a transaction, once it returned). */
  committed(): void {
    // The worker's transactions are its own, not the waking request's (RequestCommits), and so
    // are its rounds: a timer set in the request's context would carry the request's trace on.
    detached(() =>
      outsideRequestCommits(() => {
        if (!this.dispatcher.wake()) this.notifyWorkers();
      }),
    );
  }

  /** Deliveries are written in `tx`: the workers hear of them once it commits. */
  afterCommit(tx: Tx): void {
    Transactions.afterCommit(tx, () => this.committed());
  }

  /** One NOTIFY at a time: deliveries that commit while one is under way share the next. */
  private notifyWorkers(): void {
    if (this.notifying) {
      this.notifyAgain = true;
      return;
    }
    this.notifying = true;
    this.notifications
      .notify('webhook_due')
      .catch((error: Error) => this.logger.warn(`could not notify the webhook workers: ${error.message}`))
      .finally(() => {
        this.notifying = false;
        if (this.notifyAgain) {
          this.notifyAgain = false;
          this.notifyWorkers();
        }
      });
  }
}
