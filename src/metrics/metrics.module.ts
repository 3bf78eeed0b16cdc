import { Module } from '@nestjs/common';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import { DomainEventsModule } from '../domain-events/domain-events.module';
import { OutboxModule } from '../outbox/outbox.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { MetricsExporter } from './metrics-exporter';

/** Prometheus metrics (contract §15) on METRICS_PORT; see docs/operations.md#metrics. */
@Module({
  imports: [OutboxModule, WebhooksModule, RateLimitModule, DomainEventsModule],
  providers: [MetricsExporter],
})
export class MetricsModule {}
