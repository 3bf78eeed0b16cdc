import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isoTimestampSql } from '../database/iso-timestamp.sql';
import type { EventCursor } from './event-cursor';
import { EVENTS_HORIZON, EVENTS_HORIZON_LAG } from './events-horizon.sql';
import { DomainEvents } from './domain-events';
import type { DomainEventsSql } from './domain-events.sql';

export interface EventRow {
  id: string;
  brand_id: number;
  type: string;
  data: Record<string, unknown>;
  /** As the webhook message's `timestamp` writes it. */
  occurred_at: string;
  position: string;
}

const columns = (events: DomainEventsSql) =>
  `e.id, e.brand_id, e.type, ${events.data('e')} AS data, ${isoTimestampSql('e.occurred_at')} AS occurred_at, e.position`;

/** A page of a brand's events ($1 brand, $2 types, $3 and $4 the cursor's position and id, $5 limit), in stream order. */
export const eventsPage = (events: DomainEventsSql) => `SELECT ${columns(events)} FROM domain_events e
  WHERE e.brand_id = $1 AND e.type = ANY ($2::text[])
    AND (e.position, e.id) > ($3::bigint, $4::bigint)
    AND e.position < ${EVENTS_HORIZON}
  ORDER BY e.position, e.id
  LIMIT $5`;

/** The domain_events table as the events API reads it. */
@Injectable()
export class EventsRepository {
  private statements: { page: string; byId: string } | null = null;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: DomainEvents,
  ) {}

  /** Built on first use: every owner that keeps events in columns has said so by then (DomainEvents). */
  private get sql() {
    const events = this.events.sql;
    return (this.statements ??= {
      page: eventsPage(events),
      byId: `SELECT ${columns(events)} FROM domain_events e WHERE e.id = $1`,
    });
  }

  /** Up to `limit` of the brand's events of `types` after `after`, in stream order, below the horizon. */
  page(brandId: number, types: string[], after: EventCursor, limit: number): Promise<EventRow[]> {
    return this.db.query(this.sql.page, [brandId, types, after.position, after.id, limit]);
  }

  /** How long this database's oldest writer has held the readers' horizon back (0 when none runs). */
  async horizonLagSeconds(): Promise<number> {
    const [row]: { seconds: number }[] = await this.db.query(EVENTS_HORIZON_LAG);
    return row.seconds;
  }

  async byId(id: number): Promise<EventRow | null> {
    const rows: EventRow[] = await this.db.query(this.sql.byId, [id]);
    return rows[0] ?? null;
  }
}
