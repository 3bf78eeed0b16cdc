import { WebhooksSql } from '../webhooks/webhooks.sql';

interface EventPart {
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
 * the change left; the outbound webhooks' message and deliveries are written by the same
 * statement. Arguments are SQL expressions of the calling statement.
 */
export const DomainEventsSql = {
  /**
   * CTEs appending one event of the subject, numbered after its last (the caller holds the
   * subject's row lock, so numbers never collide; the unique key backs that up).
   */
  appendCtes: (p: EventPart) =>
    `domain_event AS (
       INSERT INTO domain_events (brand_id, subject, subject_id, sequence, type, data)
       SELECT ${p.brandId}, '${p.subject}', ${p.subjectId}, seq.n, ${p.type}, ${p.data} || jsonb_build_object('sequence', seq.n)
         FROM ${p.from},
              LATERAL (SELECT COALESCE(max(e.sequence), 0) + 1 AS n FROM domain_events e
                        WHERE e.subject = '${p.subject}' AND e.subject_id = ${p.subjectId}) AS seq
        ${p.condition ? `WHERE ${p.condition}` : ''}
       RETURNING brand_id, type, data, occurred_at
     ),
     ${WebhooksSql.fanOut('domain_event')}`,

  /** A statement appending one event (see appendCtes); its one row counts the webhook deliveries written. */
  append: (p: EventPart) =>
    `WITH ${DomainEventsSql.appendCtes(p)} SELECT ${WebhooksSql.deliveriesWritten} AS deliveries`,
};
