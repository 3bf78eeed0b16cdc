import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { systemContext } from '../common/context/request-context';
import { PRUNE_BATCH, pruneInBatches } from '../common/runtime/batched-pruning';
import { IntervalTask } from '../common/runtime/interval-task';
import type { Environment } from '../config/environment';
import { DatabaseNotifications } from '../database/notifications';
import { Transactions } from '../database/transactions';
import { Outbox } from '../outbox/outbox';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { signMessage } from './message-signature';
import { parseSchedule, retryDelayMs } from './retry-schedule';
import { SecretBox } from '../common/secrets/secret-box';
import { SuccessBatch } from './success-batch';
import { WebhookDeliveriesRepository, type ClaimedDelivery } from './webhook-deliveries.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookFigures } from './webhook-figures';
import { sendMessage } from './webhook-sender';

const PRUNE_EVERY_MS = 3_600_000;
// Deliveries committed or slots freed within this share one claim: a claim costs PostgreSQL about as much for one
// delivery as for twenty (PERF-26). It is also the least time between two claims of one worker, which bounds an
// endpoint at WEBHOOK_ENDPOINT_CONCURRENCY sends per round trip plus this (docs/operations.md).
const REPOLL_MS = 20;
const UNOPENABLE = 'the signing secret cannot be opened: every instance needs the same SECRETS_ENCRYPTION_KEY';
const SYSTEM = systemContext('webhook-dispatcher');

/**
 * Delivers webhook messages (contract §10). Every instance may run it: deliveries are claimed
 * with a lease under `FOR UPDATE SKIP LOCKED`. Sends run side by side, each bounded by
 * WEBHOOK_TIMEOUT_MS, at most WEBHOOK_CONCURRENCY per instance and WEBHOOK_ENDPOINT_CONCURRENCY
 * per endpoint, so a receiver that hangs holds only its own share and never the requests that
 * caused the events (they only wrote rows). A send's slot is free again once its receiver has
 * answered: writing the outcome goes on beside the next sends (up to as many again), so under
 * load a busy database does not halve the rate at which an endpoint is served.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookDispatcher');
  private readonly inFlight = new Set<Promise<void>>();
  /** Claims whose receiver has answered and whose outcome is being written. */
  private readonly answered = new Set<string>();
  private readonly schedule: number[];
  private readonly timeoutMs: number;
  private readonly leaseSeconds: number;
  /** The worker's passes (WEBHOOK_WORKER): every WEBHOOK_POLL_MS, and soon after a wake-up. */
  private task?: IntervalTask<number>;
  private lastPrune = 0;
  private readonly successes = new SuccessBatch((batch) => this.deliveries.recordSuccesses(batch));

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly transactions: Transactions,
    private readonly journal: SecurityJournal,
    private readonly outbox: Outbox,
    private readonly box: SecretBox,
    private readonly config: ConfigService<Environment, true>,
    private readonly notifications: DatabaseNotifications,
    private readonly figures: WebhookFigures,
  ) {
    this.schedule = parseSchedule(config.get('WEBHOOK_RETRY_SCHEDULE', { infer: true }));
    this.timeoutMs = config.get('WEBHOOK_TIMEOUT_MS', { infer: true });
    // Past the timeout with room to record the attempt: a live send never loses its claim.
    this.leaseSeconds = Math.ceil(this.timeoutMs / 1000) + 30;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.get('WEBHOOK_WORKER', { infer: true })) return;
    // Deliveries another instance committed and could not start on (DeliveryWake) are claimed at
    // once; polling remains for retries that come due and for notifications lost with a connection.
    this.task = new IntervalTask({
      everyMs: this.config.get('WEBHOOK_POLL_MS', { infer: true }),
      firstAfterMs: 0,
      run: () =>
        this.runOnce().catch((error: Error) => {
          this.logger.error({ err: { message: error.message } }, 'webhook pass failed');
          return 0;
        }),
    });
    await this.notifications.listen('webhook_due', () => this.scheduleSoon());
    this.task.start();
  }

  /**
   * New deliveries have committed: claims them soon. False when this instance runs no worker or
   * has as many sends under way as it may, so that another instance's worker should hear of them.
   */
  wake(): boolean {
    if (!this.task || this.task.stopped) return false;
    const sending = this.inFlight.size - this.answered.size;
    if (sending >= this.config.get('WEBHOOK_CONCURRENCY', { infer: true })) return false;
    this.scheduleSoon();
    return true;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task?.stop();
    await this.drain();
  }

  /** Claims what is due, as far as the concurrency allows, and starts sending it; the number started. */
  async runOnce(): Promise<number> {
    this.pruneNowAndThen();
    const concurrency = this.config.get('WEBHOOK_CONCURRENCY', { infer: true });
    const sending = this.inFlight.size - this.answered.size;
    const room = Math.min(concurrency - sending, 2 * concurrency - this.inFlight.size);
    if (room <= 0) return 0;
    const token = randomUUID();
    const claimed = await this.deliveries.claim(
      token,
      room,
      this.config.get('WEBHOOK_ENDPOINT_CONCURRENCY', { infer: true }),
      this.leaseSeconds,
      [...this.answered],
    );
    for (const delivery of claimed) {
      const send = this.deliver(delivery, token)
        .catch((error: Error) => this.logger.error({ err: { message: error.message } }, 'delivery failed to record'))
        .finally(() => {
          this.inFlight.delete(send);
          this.answered.delete(delivery.id);
          this.scheduleSoon();
        });
      this.inFlight.add(send);
    }
    return claimed.length;
  }

  /** Waits for every send started so far (tests, shutdown). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) {
      const sends = Promise.all([...this.inFlight]);
      await this.successes.flush();
      await sends;
    }
  }

  private async deliver(delivery: ClaimedDelivery, token: string): Promise<void> {
    const body = JSON.stringify(delivery.payload);
    const secrets = this.secretsOf(delivery);
    const timestamp = Math.floor(Date.now() / 1000);
    const result = !secrets
      ? { status: null, durationMs: 0, error: UNOPENABLE, body: null }
      : await sendMessage(
          delivery.url,
          {
            'content-type': 'application/json',
            'user-agent': 'commerce-integration-layer-webhooks/1',
            'webhook-id': delivery.msg_id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signMessage(secrets, delivery.msg_id, timestamp, body),
          },
          body,
          { timeoutMs: this.timeoutMs, allowPrivate: this.config.get('WEBHOOK_ALLOW_PRIVATE_URLS', { infer: true }) },
        );
    this.answered.add(delivery.id);
    this.scheduleSoon();
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    this.figures.attempted(ok ? 'succeeded' : 'failed');
    const attempt = {
      ...result,
      error: ok
        ? null
        : (result.error ??
          `answered ${result.status}${result.status && result.status < 400 ? ' (redirects are not followed)' : ''}`),
    };
    if (ok) {
      const recorded = await this.successes.add({ deliveryId: delivery.id, token, attempt });
      if (recorded && delivery.failing_since !== null) await this.endpoints.recordSuccess(delivery.endpoint_id);
      return;
    }
    const retryInMs = retryDelayMs(this.schedule, delivery.attempts + 1);
    const status = retryInMs === null ? 'failed' : 'pending';
    await this.transactions.run(async (tx) => {
      if (!(await this.deliveries.recordAttempt(tx, delivery.id, token, attempt, { status, retryInMs }))) return;
      const disableAfter = this.config.get('WEBHOOK_DISABLE_AFTER_SECONDS', { infer: true });
      if (await this.endpoints.recordFailure(tx, delivery.endpoint_id, disableAfter)) {
        await this.journal.recordWith(tx, SYSTEM, {
          type: 'webhook_endpoint_disabled',
          brandId: delivery.brand_id,
          details: { endpointId: delivery.endpoint_id, url: delivery.url, failingForSeconds: disableAfter },
        });
        await this.outbox.enqueue(tx, [
          {
            kind: 'mail.staff_webhook_disabled',
            payload: { brandId: delivery.brand_id, endpointId: delivery.endpoint_id, url: delivery.url },
            dedupeKey: `staff_webhook_disabled:${delivery.endpoint_id}:${Date.now()}`,
          },
        ]);
      }
    });
  }

  /** The secrets to sign with (the previous one while it has not expired), or null when they cannot be opened. */
  private secretsOf(delivery: ClaimedDelivery): string[] | null {
    try {
      const secrets = [this.box.open(delivery.secret_sealed)];
      const previousValid =
        delivery.previous_secret_sealed !== null &&
        delivery.previous_secret_expires_at !== null &&
        delivery.previous_secret_expires_at > new Date();
      if (previousValid) secrets.push(this.box.open(delivery.previous_secret_sealed!));
      return secrets;
    } catch {
      return null;
    }
  }

  /** Freed slots and new deliveries take the next due ones soon; wake-ups close together share one claim. */
  private scheduleSoon(): void {
    this.task?.soon(REPOLL_MS);
  }

  /** Settled messages past WEBHOOK_LOG_RETENTION_DAYS, at most once an hour per instance, off the send path. */
  private pruneNowAndThen(): void {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    const days = this.config.get('WEBHOOK_LOG_RETENTION_DAYS', { infer: true });
    pruneInBatches(
      async () => {
        const removed = await this.deliveries.pruneBatch(days);
        return { removed, more: removed === PRUNE_BATCH };
      },
      () => this.task?.stopped ?? false,
    ).catch((error: Error) => this.logger.warn(`could not prune webhook deliveries: ${error.message}`));
  }
}
