import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { Server } from 'node:http';
import { serveMetrics, type Exposition } from './metrics-server';

const READY = 'cil:metrics-ready';
const GONE = 'cil:metrics-gone';
const REQUEST = 'cil:metrics-request';
const RESPONSE = 'cil:metrics-response';
/** A worker that has not answered by then fails the scrape (prom-client's own limit). */
const ANSWER_WITHIN_MS = 5000;

type Message =
  | { type: typeof READY | typeof GONE }
  | { type: typeof REQUEST; id: number }
  | { type: typeof RESPONSE; id: number; metrics?: object[]; error?: string };

const isMessage = (message: unknown): message is Message =>
  typeof message === 'object' &&
  message !== null &&
  String((message as { type?: unknown }).type).startsWith('cil:metrics-');

/**
 * In a cluster worker: answers the primary's requests with this worker's figures, and says it is
 * ready to (a worker still starting is not asked). The returned function stops answering.
 */
export function answerPrimary(registry: Registry): () => void {
  const send = (message: Message) => process.send?.(message, undefined, {}, () => undefined);
  const onMessage = (message: unknown) => {
    if (!isMessage(message) || message.type !== REQUEST) return;
    const { id } = message;
    registry.getMetricsAsJSON().then(
      (metrics) => send({ type: RESPONSE, id, metrics }),
      (error: Error) => send({ type: RESPONSE, id, error: error.message }),
    );
  };
  process.on('message', onMessage);
  send({ type: READY });
  return () => {
    process.off('message', onMessage);
    send({ type: GONE });
  };
}

interface Scrape {
  waiting: Set<Worker>;
  responses: object[][];
  timer: NodeJS.Timeout;
  resolve(exposition: Exposition): void;
  reject(error: Error): void;
}

/**
 * In the primary of `npm run start:cluster`: one scrape asks every ready worker for its figures
 * over IPC and adds them up with prom-client's AggregatorRegistry (each series by its own
 * aggregator: counters and the histogram summed, the database gauges' largest). Its
 * clusterMetrics() is not used as it stands because it asks workers still starting, which do
 * not answer yet, and so fails every scrape until they have.
 */
export class ClusterMetrics {
  private readonly ready = new Set<Worker>();
  private readonly scrapes = new Map<number, Scrape>();
  private nextId = 0;

  constructor() {
    cluster.on('message', (worker, message) => this.heard(worker, message));
    cluster.on('exit', (worker) => this.forget(worker));
  }

  collect(): Promise<Exposition> {
    const id = this.nextId++;
    const workers = [...this.ready].filter((worker) => worker.isConnected());
    return new Promise<Exposition>((resolve, reject) => {
      const timer = setTimeout(
        () => this.fail(id, new Error('a worker did not answer for metrics in time')),
        ANSWER_WITHIN_MS,
      );
      this.scrapes.set(id, { waiting: new Set(workers), responses: [], timer, resolve, reject });
      for (const worker of workers) {
        worker.send({ type: REQUEST, id } satisfies Message, (error: Error | null) => {
          if (error) this.answered(id, worker, undefined);
        });
      }
      this.settleIfDone(id);
    });
  }

  private heard(worker: Worker, message: unknown): void {
    if (!isMessage(message)) return;
    if (message.type === READY) this.ready.add(worker);
    else if (message.type === GONE) this.forget(worker);
    else if (message.type === RESPONSE) {
      if (message.error !== undefined) this.fail(message.id, new Error(message.error));
      else this.answered(message.id, worker, message.metrics);
    }
  }

  /** A worker that stops or dies is not waited for; its figures leave the sums with it. */
  private forget(worker: Worker): void {
    this.ready.delete(worker);
    for (const id of [...this.scrapes.keys()]) this.answered(id, worker, undefined);
  }

  private answered(id: number, worker: Worker, metrics: object[] | undefined): void {
    const scrape = this.scrapes.get(id);
    if (!scrape || !scrape.waiting.delete(worker)) return;
    if (metrics) scrape.responses.push(metrics);
    this.settleIfDone(id);
  }

  private settleIfDone(id: number): void {
    const scrape = this.scrapes.get(id);
    if (!scrape || scrape.waiting.size > 0) return;
    this.scrapes.delete(id);
    clearTimeout(scrape.timer);
    try {
      const registry = AggregatorRegistry.aggregate(scrape.responses);
      registry.metrics().then(
        (body) => scrape.resolve({ contentType: registry.contentType, body }),
        (error: Error) => scrape.reject(error),
      );
    } catch (error) {
      scrape.reject(error as Error);
    }
  }

  private fail(id: number, error: Error): void {
    const scrape = this.scrapes.get(id);
    if (!scrape) return;
    this.scrapes.delete(id);
    clearTimeout(scrape.timer);
    scrape.reject(error);
  }
}

/** The primary's `GET /metrics` on METRICS_PORT: every ready worker's figures, added up. */
export function serveClusterMetrics(port: number, host: string): Promise<Server> {
  const figures = new ClusterMetrics();
  return serveMetrics(
    port,
    host,
    () => figures.collect(),
    (error) => process.stderr.write(`metrics scrape failed: ${error.message}\n`),
  );
}
