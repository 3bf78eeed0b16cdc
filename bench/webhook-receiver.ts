import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The receiver of the webhook_unique_subscribed scenario: answers 204 at once and records each
 * message's webhook-id and its lag, from the event's timestamp (its transaction's start) to arrival.
 */
export class BenchReceiver {
  readonly ids = new Map<string, number>();
  /** The orders whose order.created arrived. */
  readonly orderIds = new Set<number>();
  readonly lagsMs: number[] = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const id = String(req.headers['webhook-id']);
        this.ids.set(id, (this.ids.get(id) ?? 0) + 1);
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          timestamp: string;
          data: { orderId?: number };
        };
        if (typeof body.data.orderId === 'number') this.orderIds.add(body.data.orderId);
        this.lagsMs.push(Date.now() - Date.parse(body.timestamp));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Messages received more than once. */
  duplicates(): number {
    return [...this.ids.values()].reduce((n, count) => n + count - 1, 0);
  }

  /** Lags from here on only (after a warm-up). */
  forgetLags(): void {
    this.lagsMs.length = 0;
  }

  lagP99(): number {
    const sorted = [...this.lagsMs].sort((a, b) => a - b);
    return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
