import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PRUNE_BATCH } from '../common/runtime/batched-pruning';
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

/**
 * One batch ($1 lock key, $2 retention days): the PRUNE_BATCH oldest events past the retention,
 * by ix_domain_events_occurred, removed; for each subject numbered by its previous event (an
 * order's, a return's, a product's: domain-events.sql.ts; a size is numbered by its row), the
 * numbers of the last one removed are kept in domain_event_floors, so its next event goes on
 * from them once none of its events is left.
 */
export const PRUNE_EVENTS_BATCH = `WITH turn AS (SELECT pg_try_advisory_xact_lock($1) AS mine),
     batch AS (SELECT e.id FROM domain_events e
                WHERE e.occurred_at < now() - make_interval(days => $2) AND (SELECT mine FROM turn)
                ORDER BY e.occurred_at LIMIT ${PRUNE_BATCH}),
     removed AS (DELETE FROM domain_events d USING batch b WHERE d.id = b.id
                 RETURNING d.subject, d.subject_id, d.sequence, d.position),
     floors AS (INSERT INTO domain_event_floors AS f (subject, subject_id, sequence, position)
                SELECT subject, subject_id, max(sequence), max(position) FROM removed
                 WHERE subject <> 'size' GROUP BY subject, subject_id
                ON CONFLICT (subject, subject_id) DO UPDATE
                  SET sequence = GREATEST(f.sequence, EXCLUDED.sequence), position = GREATEST(f.position, EXCLUDED.position))
SELECT (SELECT mine FROM turn) AS mine, (SELECT count(*) FROM removed)::int AS removed`;

/** The domain_events table as the events API reads it, and its pruning. */
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

  /** One batch of the pruning (PRUNE_EVENTS_BATCH); mine is false when another instance had the turn. */
  async pruneBatch(lockKey: number, days: number): Promise<{ mine: boolean; removed: number }> {
    const rows: Array<{ mine: boolean; removed: number }> = await this.db.query(PRUNE_EVENTS_BATCH, [lockKey, days]);
    return rows[0];
  }

  async byId(id: number): Promise<EventRow | null> {
    const rows: EventRow[] = await this.db.query(this.sql.byId, [id]);
    return rows[0] ?? null;
  }
}
