import type { DomainEventSubscriber } from './domain-event-subscriber';

export interface EventPart {
  subject: 'order' | 'return';
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
   * CTEs appending one event of the subject, numbered after its last (the caller holds the
   * subject's row lock, so numbers never collide; the unique key backs that up), and the
   * subscribers' writes for it.
   */
  appendCtes(p: EventPart): string;
  /** After appendCtes: how many units of work the subscribers wrote (an int). */
  written: string;
  /** A statement appending one event; its one row's `written` is the subscribers' work. */
  append(p: EventPart): string;
}

/** The parts for these subscribers (none: events are recorded and nothing else is written). */
export function domainEventsSql(subscribers: readonly DomainEventSubscriber[]): DomainEventsSql {
  const written = subscribers.length ? subscribers.map((s) => `(${s.written})`).join(' + ') : '0';
  const sql: DomainEventsSql = {
    wanted: (brandId, type) =>
      subscribers.length ? `(${subscribers.map((s) => s.wants(brandId, type)).join(' OR ')})` : 'false',
    appendCtes: (p) =>
      [
        `domain_event AS (
       INSERT INTO domain_events (brand_id, subject, subject_id, sequence, type, data)
       SELECT ${p.brandId}, '${p.subject}', ${p.subjectId}, seq.n, ${p.type}, ${p.data} || jsonb_build_object('sequence', seq.n)
         FROM ${p.from},
              LATERAL (SELECT COALESCE(max(e.sequence), 0) + 1 AS n FROM domain_events e
                        WHERE e.subject = '${p.subject}' AND e.subject_id = ${p.subjectId}) AS seq
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
