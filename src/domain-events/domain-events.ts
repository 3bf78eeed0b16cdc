import { Injectable } from '@nestjs/common';
import { Transactions, type Tx } from '../database/transactions';
import type { DomainEventSubscriber } from './domain-event-subscriber';
import { domainEventsSql, type DomainEventsSql, type EventPart } from './domain-events.sql';
import type { EventColumns } from './event-columns';
import { EventsCommitted } from './events-committed';

/**
 * Where the owners of events get the statement parts that record them, and
 * where the modules acting on events subscribe (in their constructors, so every subscriber is in
 * before the first request builds a statement). One per application.
 */
@Injectable()
export class DomainEvents {
  private readonly subscribers: DomainEventSubscriber[] = [];
  private readonly kept: EventColumns[] = [];
  private built: DomainEventsSql | null = null;
  private readonly appends = new Map<EventPart | readonly EventPart[], string>();

  constructor(private readonly eventsCommitted: EventsCommitted) {}

  subscribe(subscriber: DomainEventSubscriber): void {
    // A statement built without a subscriber would leave its work unwritten for good.
    if (this.built) throw new Error('a domain-event subscriber came after the statements were built');
    this.subscribers.push(subscriber);
  }

  /** An owner keeps its events' data in columns (EventColumns): every read of an event's data must know. */
  keep(columns: EventColumns): void {
    if (this.built) throw new Error('a way of keeping events came after the statements were built');
    this.kept.push(columns);
  }

  /** The statement parts with every subscriber's; build statements from them on first use, not at start-up. */
  get sql(): DomainEventsSql {
    return (this.built ??= domainEventsSql(this.subscribers, this.kept));
  }

  /** A statement that is a transaction of its own recorded events and committed, the subscribers' work `written`. */
  committed(written: number): void {
    this.eventsCommitted.signal();
    if (written > 0) for (const subscriber of this.subscribers) subscriber.committed();
  }

  /**
   * Appends the event `part` describes (its `$n` taken from `values`) in `tx`, after the change
   * it reports; the subscribers hear of it once `tx` commits.
   */
  async append(tx: Tx, part: EventPart | readonly EventPart[], values: unknown[]): Promise<void> {
    let text = this.appends.get(part);
    if (text === undefined) this.appends.set(part, (text = this.sql.append(part)));
    const rows: Array<{ written: number }> = await tx.query(text, values);
    this.recorded(tx, rows[0]?.written ?? 0);
  }

  /** A statement of `tx` recorded events and its subscribers wrote `written`: they, and the events' readers, hear of it once `tx` commits. */
  recorded(tx: Tx, written: number): void {
    Transactions.afterCommit(tx, () => this.committed(written));
  }
}
