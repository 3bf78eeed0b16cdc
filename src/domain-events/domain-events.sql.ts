/**
 * The domain events' statement part (contract §10): the owner of a subject appends its events
 * with it, in the transaction of the change, from its own row, so the event carries the state
 * the change left. Arguments are SQL expressions of the calling statement.
 */
export const DomainEventsSql = {
  /**
   * Appends one event of `subject` `subjectId`, numbered after the subject's last (the caller
   * holds the subject's row lock, so numbers never collide; the unique key backs that up).
   * `data` is a jsonb expression over `from`; the event's `sequence` is added to it.
   */
  append: (p: {
    subject: 'order' | 'return';
    brandId: string;
    subjectId: string;
    type: string;
    data: string;
    from: string;
  }) =>
    `INSERT INTO domain_events (brand_id, subject, subject_id, sequence, type, data)
     SELECT ${p.brandId}, '${p.subject}', ${p.subjectId}, seq.n, ${p.type}, ${p.data} || jsonb_build_object('sequence', seq.n)
       FROM ${p.from},
            LATERAL (SELECT COALESCE(max(e.sequence), 0) + 1 AS n FROM domain_events e
                      WHERE e.subject = '${p.subject}' AND e.subject_id = ${p.subjectId}) AS seq`,
};
