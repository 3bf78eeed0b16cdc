import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { RequestOutcomes } from '../common/http/request-outcomes';
import { RateLimitRefusals } from '../common/rate-limit/rate-limit-refusals';
import type { Environment } from '../config/environment';
import { EventsHorizon } from '../domain-events/events-horizon';
import { OutboxJobs } from '../outbox/outbox-jobs.repository';
import { WebhookFigures } from '../webhooks/webhook-figures';
import { answerPrimary } from './cluster-metrics';
import { closeMetricsServer, serveMetrics } from './metrics-server';
import { createServiceMetrics, type ServiceMetrics } from './metrics-registry';

/**
 * With METRICS_PORT set: counts what happens (requests, delivery attempts, rate-limit refusals)
 * and serves it on that port, or, in a worker of `npm run start:cluster`, hands it to the primary,
 * which serves every worker's figures. Unset: nothing is counted, nothing listens, and no hook is
 * installed on the request path.
 */
@Injectable()
export class MetricsExporter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private readonly port?: number;
  private readonly host: string;
  private readonly metrics?: ServiceMetrics;
  private server?: Server;
  private stopAnswering?: () => void;

  constructor(
    config: ConfigService<Environment, true>,
    outcomes: RequestOutcomes,
    outbox: OutboxJobs,
    webhooks: WebhookFigures,
    horizon: EventsHorizon,
    refusals: RateLimitRefusals,
  ) {
    this.port = config.get('METRICS_PORT', { infer: true });
    this.host = config.get('HOST', { infer: true });
    if (this.port === undefined) return;
    const metrics = createServiceMetrics({
      outboxBacklog: () => outbox.backlog(),
      webhookBacklog: () => webhooks.backlog(),
      eventsHorizonLag: () => horizon.lagSeconds(),
      readFailed: (error) => this.logger.warn(`a gauge could not be read for the metrics: ${error.message}`),
    });
    this.metrics = metrics;
    // Subscribed before setupApp installs the platform's hook, which it does only for listeners.
    outcomes.listen((outcome) =>
      metrics.requests.observe(outcome.method, outcome.route, outcome.status, outcome.durationMs / 1000),
    );
    const succeeded = metrics.webhookAttempts.labels('succeeded');
    const failed = metrics.webhookAttempts.labels('failed');
    webhooks.onAttempt((result) => (result === 'succeeded' ? succeeded : failed).inc());
    refusals.listen(() => metrics.rateLimitRefusals.inc());
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.metrics || this.port === undefined) return;
    const { registry } = this.metrics;
    // Under the cluster the primary listens on METRICS_PORT; a worker answers it over IPC.
    if (cluster.isWorker) {
      this.stopAnswering = answerPrimary(registry);
      return;
    }
    this.server = await serveMetrics(
      this.port,
      this.host,
      async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
      (error) => this.logger.error(`metrics scrape failed: ${error.message}`),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopAnswering?.();
    await closeMetricsServer(this.server);
  }
}
