import type { DomainEventSubscriber } from './domain-event-subscriber';

export interface EventPart {
  subject: 'order' | 'return' | 'size' | 'product';
  brandId: string;
  subjectId: string;
  type: string;
  /** A jsonb expression over `from`; the event's `sequence` is added to it. */
  data: string;
  from: string;
  /** Recorded only when this holds. */
  condition?: string;
}

/**
 * The domain events' statement parts (contract §10): the owner of a subject appends its events
 * with them, in the transaction of the change, from its own row, so the event carries the state
 * the change left; what the subscribers write for the event (DomainEventSubscriber) is part of
 * the same statement. Arguments are SQL expressions of the calling statement.
 */
export interface DomainEventsSql {
  /** True when some subscriber wants events of `type` of the brand. */
  wanted(brandId: string, type: string): string;
  /**
   * CTEs appending one event of the subject, numbered and positioned after its last (the caller
   * holds the subject's row lock, so numbers never collide, the unique key backing that up, and
   * the last event's transaction has ended or is this one), and the subscribers' writes for it.
   */
  appendCtes(p: EventPart): string;
  /** After appendCtes: how many units of work the subscribers wrote (an int). */
  written: string;
  /** A statement appending one event; its one row's `written` is the subscribers' work. */
  append(p: EventPart): string;
}

/**
 * An event's position (contract §16) is at least its transaction's id, so it stays at or above
 * the readers' horizon (EventsRepository) while that transaction runs, and at least its
 * subject's previous event's, so one subject's events are read in sequence even when a later
 * one's transaction has the smaller id. `domain_event_position()` (the column's default, from its
 * migration) is pg_current_xact_id() as a bigint.
 */
const POSITION_OF_THIS_TRANSACTION = 'domain_event_position()';

/** The parts for these subscribers (none: events are recorded and nothing else is written). */
export function domainEventsSql(subscribers: readonly DomainEventSubscriber[]): DomainEventsSql {
  const written = subscribers.length ? subscribers.map((s) => `(${s.written})`).join(' + ') : '0';
  const sql: DomainEventsSql = {
    wanted: (brandId, type) =>
      subscribers.length ? `(${subscribers.map((s) => s.wants(brandId, type)).join(' OR ')})` : 'false',
    appendCtes: (p) =>
      [
        `domain_event AS (
       INSERT INTO domain_events (brand_id, subject, subject_id, sequence, type, data, position)
       SELECT ${p.brandId}, '${p.subject}', ${p.subjectId}, seq.n, ${p.type}, ${p.data} || jsonb_build_object('sequence', seq.n),
              GREATEST(${POSITION_OF_THIS_TRANSACTION}, seq.last_position)
         FROM ${p.from},
              LATERAL (SELECT COALESCE(max(l.sequence), 0) + 1 AS n, max(l.position) AS last_position
                         FROM (SELECT e.sequence, e.position FROM domain_events e
                                WHERE e.subject = '${p.subject}' AND e.subject_id = ${p.subjectId}
                                ORDER BY e.sequence DESC LIMIT 1) AS l) AS seq
        ${p.condition ? `WHERE ${p.condition}` : ''}
       RETURNING brand_id, type, data, occurred_at
     )`,
        ...subscribers.map((s) => s.ctes('domain_event')),
      ].join(',\n     '),
    written,
    append: (p) => `WITH ${sql.appendCtes(p)} SELECT ${written} AS written`,
  };
  return sql;
}
