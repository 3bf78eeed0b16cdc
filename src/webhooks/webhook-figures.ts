import { Injectable } from '@nestjs/common';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

export type AttemptOutcome = 'succeeded' | 'failed';

/**
 * What the metrics read of the deliveries: the backlog, at scrape time, and each attempt's outcome
 * as the dispatcher gets it (told only to listeners, none while metrics are off).
 */
@Injectable()
export class WebhookFigures {
  private readonly listeners: Array<(outcome: AttemptOutcome) => void> = [];

  constructor(private readonly deliveries: WebhookDeliveriesRepository) {}

  backlog(): Promise<{ pending: number; failed: number; oldestPendingAgeSeconds: number }> {
    return this.deliveries.backlog();
  }

  onAttempt(listener: (outcome: AttemptOutcome) => void): void {
    this.listeners.push(listener);
  }

  attempted(outcome: AttemptOutcome): void {
    for (const listener of this.listeners) listener(outcome);
  }
}
