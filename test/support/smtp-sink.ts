import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  messageId: string;
  raw: string;
}

/** A real SMTP server in the test process that keeps what it receives; `down` refuses mail. */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  down = false;
  private readonly server: SMTPServer;

  /** `delayMs`: how long the server takes to accept each message, as a slow relay does. */
  constructor(options: { delayMs?: number } = {}) {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (_address, _session, callback) =>
        callback(this.down ? Object.assign(new Error('mailbox unavailable'), { responseCode: 451 }) : undefined),
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () =>
          setTimeout(
            () => this.keep(Buffer.concat(chunks).toString(), session.envelope.rcptTo, callback),
            options.delayMs ?? 0,
          ),
        );
      },
    });
    // A sender killed mid-conversation resets the socket: SMTPServer reports it as an 'error' event,
    // which would otherwise crash the suite; the message is simply not received.
    this.server.on('error', () => undefined);
  }

  private keep(raw: string, rcptTo: Array<{ address: string }>, callback: () => void): void {
    const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(raw)?.[1]?.trim() ?? '';
    this.received.push({
      to: rcptTo.map((r) => r.address),
      subject: header('Subject'),
      messageId: header('Message-ID'),
      raw,
    });
    callback();
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  to(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.to.includes(address));
  }

  /** Waits until `address` has received `count` mails (the outbox sends them shortly after the commit). */
  async waitFor(address: string, count = 1, timeoutMs = 10_000): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.to(address).length < count) {
      if (Date.now() > deadline) throw new Error(`${address} received ${this.to(address).length} of ${count} mails`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.to(address);
  }
}

/** A mail's text as a person reads it: quoted-printable soft breaks and escapes undone. */
export function readableText(mail: ReceivedMail): string {
  return mail.raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
