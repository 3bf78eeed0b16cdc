import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isoTimestampSql } from '../database/iso-timestamp.sql';
import type { EventCursor } from './event-cursor';
import { eventDataSql } from './stock-event-columns';

export interface EventRow {
  id: string;
  brand_id: number;
  type: string;
  data: Record<string, unknown>;
  /** As the webhook message's `timestamp` writes it. */
  occurred_at: string;
  position: string;
}

const COLUMNS = `e.id, e.brand_id, e.type, ${eventDataSql('e')} AS data, ${isoTimestampSql('e.occurred_at')} AS occurred_at, e.position`;

/**
 * The readers' horizon (contract §16): every transaction with an id below the oldest one this
 * statement's snapshot sees running has ended. An event not yet visible belongs to a
 * transaction that was running then (its id ≥ the horizon) or had no id yet (it gets one ≥ the
 * next id ≥ the horizon), and its position is at least its transaction's id (DomainEventsSql).
 * So the events below the horizon are final: none can join them, and reading them in
 * (position, id) order after a cursor skips none and repeats none. A long transaction anywhere
 * on the server (transaction ids are the cluster's) holds the horizon back: events appear late,
 * never out of order.
 */
const HORIZON = 'pg_snapshot_xmin(pg_current_snapshot())::text::bigint';

/** The domain_events table as the events API reads it. */
@Injectable()
export class EventsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Up to `limit` of the brand's events of `types` after `after`, in stream order, below the horizon. */
  page(brandId: number, types: string[], after: EventCursor, limit: number): Promise<EventRow[]> {
    return this.db.query(
      `SELECT ${COLUMNS} FROM domain_events e
        WHERE e.brand_id = $1 AND e.type = ANY ($2::text[])
          AND (e.position, e.id) > ($3::bigint, $4::bigint)
          AND e.position < ${HORIZON}
        ORDER BY e.position, e.id
        LIMIT $5`,
      [brandId, types, after.position, after.id, limit],
    );
  }

  async byId(id: number): Promise<EventRow | null> {
    const rows: EventRow[] = await this.db.query(`SELECT ${COLUMNS} FROM domain_events e WHERE e.id = $1`, [id]);
    return rows[0] ?? null;
  }
}
