import { Injectable } from '@nestjs/common';
import { DomainEvents } from '../domain-events/domain-events';
import { DeliveryWake } from './delivery-wake';
import { WebhooksSql } from './webhooks.sql';

/**
 * Subscribes the outbound webhooks to the domain events: the statement that records events
 * also writes a message for each and one delivery per subscribed endpoint, and the workers are woken
 * once it has committed.
 */
@Injectable()
export class WebhookFanOut {
  constructor(events: DomainEvents, wake: DeliveryWake) {
    events.subscribe({
      wants: WebhooksSql.hasSubscriber,
      ctes: WebhooksSql.fanOut,
      written: WebhooksSql.deliveriesWritten,
      committed: () => wake.committed(),
    });
  }
}
