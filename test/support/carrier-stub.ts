import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CarrierStubOptions {
  token?: string;
  /** Answer 503 to this many calls before the first success. */
  failFirst?: number;
  /** Wait this long before answering. */
  delayMs?: number;
}

export interface StubShipment {
  uuid: string;
  trackingNumber: string;
  orderNumber: string;
  body: Record<string, unknown>;
}

/**
 * A local stand-in for the carrier's API (POST /shipments), idempotent by the Idempotency-Key
 * header as the real one is. `down` and `failFirst` simulate outages.
 * Run it by hand: `npm run carrier-stub -- --port 4010 --token dev --fail-first 2`.
 */
export class CarrierStub {
  /** Each call's idempotency key, answer and W3C `traceparent` (sent when the service traces). */
  readonly calls: Array<{ idempotencyKey?: string; status: number; traceparent?: string }> = [];
  readonly shipments = new Map<string, StubShipment>();
  down = false;
  /** A failure answers 422 quoting the request's recipient, as carriers' validation errors do. */
  quoteOnFailure = false;
  /** Requests that arrived, answered or not (the slow mode answers late). */
  arrived = 0;
  private failuresLeft: number;
  private server?: Server;

  constructor(private readonly options: CarrierStubOptions = {}) {
    this.failuresLeft = options.failFirst ?? 0;
  }

  failNext(count: number): void {
    this.failuresLeft = count;
  }

  async start(port = 0): Promise<string> {
    // A sender killed mid-request resets the socket: that request is simply gone, not an error of the test.
    this.server = createServer((req, res) => void this.handle(req, res).catch(() => res.destroy()));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.arrived += 1;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    const answer = (status: number, body: unknown) => {
      this.calls.push({ idempotencyKey, status, traceparent: req.headers.traceparent as string | undefined });
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    };
    if (this.options.delayMs) await new Promise((resolve) => setTimeout(resolve, this.options.delayMs));
    if (req.method !== 'POST' || req.url !== '/shipments') return answer(404, { error: 'not found' });
    if (this.options.token && req.headers.authorization !== `Bearer ${this.options.token}`)
      return answer(401, { error: 'unauthorized' });
    if (this.down) return answer(503, { error: 'down' });
    const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>;
    if (this.failuresLeft > 0) {
      this.failuresLeft -= 1;
      if (this.quoteOnFailure) return answer(422, { error: 'invalid recipient', recipient: body.recipient });
      return answer(503, { error: 'try later' });
    }
    const orderNumber = typeof body.orderNumber === 'string' ? body.orderNumber : '';
    const key = idempotencyKey ?? orderNumber;
    let shipment = this.shipments.get(key);
    if (!shipment) {
      shipment = { uuid: randomUUID(), trackingNumber: `TRK${100000 + this.shipments.size}`, orderNumber, body };
      this.shipments.set(key, shipment);
    }
    answer(201, { uuid: shipment.uuid, trackingNumber: shipment.trackingNumber });
  }
}

if (require.main === module) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const stub = new CarrierStub({
    token: arg('token'),
    failFirst: Number(arg('fail-first') ?? 0),
    delayMs: Number(arg('delay-ms') ?? 0),
  });
  void stub
    .start(Number(arg('port') ?? 4010))
    .then((url) => process.stdout.write(`carrier stub listening on ${url}\n`));
}
