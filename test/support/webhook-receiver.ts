import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedMessage {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
  at: number;
}

/** What the receiver answers to one request: a status, or `hang` (never answers). */
export type Behaviour = number | 'hang' | { status: number; headers?: Record<string, string>; body?: string };

/**
 * A real HTTP server standing for an integration's webhook receiver. Each path is an endpoint of
 * its own; `answer` sets what a path answers next (a list is used up in order, then the last stays).
 */
export class WebhookReceiver {
  readonly received: ReceivedMessage[] = [];
  private readonly plans = new Map<string, Behaviour[]>();
  private readonly hanging = new Set<ServerResponse>();
  private server?: Server;
  private base = '';

  async start(): Promise<string> {
    // A sender killed mid-request resets the socket: that request is simply gone, not an error of the test.
    this.server = createServer((req, res) => void this.handle(req, res).catch(() => res.destroy()));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.base;
  }

  url(path: string): string {
    return `${this.base}${path}`;
  }

  answer(path: string, ...behaviours: Behaviour[]): void {
    this.plans.set(path, behaviours);
  }

  at(path: string): ReceivedMessage[] {
    return this.received.filter((m) => m.path === path);
  }

  /** Answers the requests left hanging, so the sender's sockets close. */
  release(): void {
    for (const res of this.hanging) res.writeHead(200).end();
    this.hanging.clear();
  }

  async stop(): Promise<void> {
    this.release();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '/').split('?')[0];
    this.received.push({ path, headers: req.headers, body, json: JSON.parse(body || '{}'), at: Date.now() });
    const plan = this.plans.get(path) ?? [200];
    const next = plan.length > 1 ? plan.shift()! : plan[0];
    if (next === 'hang') {
      this.hanging.add(res);
      return;
    }
    const {
      status,
      headers,
      body: answer,
    } = typeof next === 'number' ? { status: next, headers: {}, body: 'ok' } : next;
    res.writeHead(status, headers).end(answer ?? '');
  }
}
