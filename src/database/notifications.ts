import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client, type ClientConfig } from 'pg';
import type { DataSource } from 'typeorm';
import { PG_CONNECTION } from './pg-connection';

const RECONNECT_MS = [1_000, 5_000, 30_000];

/**
 * PostgreSQL's LISTEN on a connection of its own (a pooled one would be handed to another query
 * and stop hearing). NOTIFY is delivered on commit only, to every instance listening, so a worker
 * can start on what another request just committed instead of at its next poll. A lost
 * connection is opened again after a pause; meanwhile the workers' polling carries on, so a
 * missed notification only costs the delay it would have saved.
 */
@Injectable()
export class DatabaseNotifications implements OnApplicationShutdown {
  private readonly logger = new Logger('DatabaseNotifications');
  private readonly handlers = new Map<string, Array<() => void>>();
  private client?: Client;
  private connecting?: Promise<void>;
  private failures = 0;
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(PG_CONNECTION) private readonly connection: ClientConfig,
  ) {}

  /** Calls `handler` whenever a committed transaction has notified `channel` (a plain identifier). */
  async listen(channel: string, handler: () => void): Promise<void> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    this.handlers.set(channel, [...(this.handlers.get(channel) ?? []), handler]);
    await this.connecting;
    // LISTEN twice is harmless; a connection opened later listens to every channel anyway.
    if (this.client) await this.client.query(`LISTEN ${channel}`);
    else await (this.connecting = this.connect().finally(() => (this.connecting = undefined)));
  }

  /** Notifies `channel` to every instance listening (on a pooled connection: it commits at once). */
  async notify(channel: string): Promise<void> {
    await this.db.query(`SELECT pg_notify($1, '')`, [channel]);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client(this.connection);
    client.on('notification', (message) => this.handlers.get(message.channel)?.forEach((handler) => handler()));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
      this.client = client;
      this.failures = 0;
    } catch (error) {
      this.lost(client, error as Error);
    }
  }

  private lost(client: Client, error?: Error): void {
    if (this.client === client) this.client = undefined;
    client.removeAllListeners();
    // An ended or failed client may still emit: keep one no-op listener so an 'error' never throws.
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (this.stopped || this.retry) return;
    const delay = RECONNECT_MS[Math.min(this.failures++, RECONNECT_MS.length - 1)];
    this.logger.warn(`listening connection lost${error ? ` (${error.message})` : ''}; again in ${delay} ms`);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, delay);
    this.retry.unref();
  }
}
