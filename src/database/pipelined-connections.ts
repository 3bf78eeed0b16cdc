import { Logger } from '@nestjs/common';
import { Client, type ClientConfig } from 'pg';

/**
 * Connections of each pipeline: two carried the order list best on two cores; for the storefront's
 * writes one to four were alike (docs/performance.md, PERF-16).
 */
export const PIPELINE_CONNECTIONS = 2;

/**
 * A connection with nothing to carry for this long is closed, as the pool closes its idle ones:
 * the backend is freed, and a connection a firewall has silently dropped is not kept in use.
 */
export const PIPELINE_IDLE_MS = 10_000;

interface Slot {
  client: Client;
  connected: Promise<unknown>;
  inFlight: number;
  lastUsed: number;
}

export interface PipelinedQuery {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * Single statements on a few connections in node-postgres' pipeline mode: a statement is written
 * at once, behind those still running on its connection, instead of waiting for a connection of
 * the pool to come free. PostgreSQL then runs them back to back without sleeping between them,
 * and both sides make fewer system calls, so each statement costs both less CPU
 * (docs/performance.md, PERF-16).
 *
 * Each statement is its own implicit transaction (node-postgres ends every one with a Sync), and
 * one that waits holds up those behind it on its connection. So reads and writes get pipelines of
 * their own (a read never waits on a row lock; a write may), and no statement may be sent here by
 * code that holds locks in a transaction: a write queued behind one waiting on those locks would
 * never run. A statement's own error fails it alone; a broken connection fails what it carries,
 * as a pool connection would, and is replaced on the next statement.
 */
export class PipelinedConnections {
  private readonly logger = new Logger(PipelinedConnections.name);
  private readonly slots: Array<Slot | null>;
  private closed = false;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: ClientConfig,
    private readonly role: 'reads' | 'writes',
    size = PIPELINE_CONNECTIONS,
    private readonly idleMs = PIPELINE_IDLE_MS,
  ) {
    this.slots = Array.from({ length: size }, () => null);
  }

  async query<T>(statement: PipelinedQuery): Promise<T[]> {
    if (this.closed) throw new Error(`Connection is closed: the pipeline of ${this.role} has been shut down`);
    const slot = this.leastBusy();
    slot.inFlight++;
    try {
      await slot.connected;
      return (await slot.client.query(statement)).rows as T[];
    } catch (error) {
      // A statement's own error (severity ERROR) leaves its connection usable; a FATAL one (the
      // backend terminated) or a socket's error does not, and the socket may not have said so yet.
      if ((error as { severity?: unknown }).severity !== 'ERROR') this.retire(slot);
      throw error;
    } finally {
      slot.inFlight--;
      slot.lastUsed = Date.now();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    const open = this.slots.filter((slot): slot is Slot => slot !== null);
    this.slots.fill(null);
    await Promise.all(open.map((slot) => slot.client.end().catch(() => undefined)));
  }

  private leastBusy(): Slot {
    let best = -1;
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i];
      if (slot === null) return (this.slots[i] = this.open());
      if (best < 0 || slot.inFlight < this.slots[best]!.inFlight) best = i;
    }
    return this.slots[best]!;
  }

  private open(): Slot {
    const client = new Client({ ...this.config, pipeline: true });
    const slot: Slot = { client, connected: client.connect(), inFlight: 0, lastUsed: Date.now() };
    this.sweeper ??= setInterval(() => this.closeIdle(), this.idleMs / 2).unref();
    // Without a listener an 'error' event would end the process; the queries it carried fail on their own.
    client.on('error', (error: Error) => {
      this.logger.warn(`a connection of the pipeline of ${this.role} was lost: ${error.message}`);
      this.retire(slot);
    });
    client.on('end', () => this.retire(slot));
    slot.connected.catch(() => this.retire(slot));
    return slot;
  }

  private closeIdle(): void {
    const now = Date.now();
    for (const slot of this.slots) {
      if (slot && slot.inFlight === 0 && now - slot.lastUsed >= this.idleMs) this.retire(slot);
    }
  }

  /** Takes a connection out of use; the next statement opens another in its place. */
  private retire(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots[index] = null;
    slot.client.end().catch(() => undefined);
  }
}
