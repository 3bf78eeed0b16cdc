import type { ReviewedQuery } from '../database/reviewed-query';
import type { DomainEventsSql } from '../domain-events/domain-events.sql';
import { RETURN_EVENT } from './returns.repository';

/** The statements the returns module composes (ReviewedQuery). */
export function reviewedQueries(events: DomainEventsSql): ReviewedQuery[] {
  return [
    {
      name: 'append-return-event',
      text: events.append(RETURN_EVENT),
      purpose: 'A return’s event, with what its subscribers write',
      parameters: ['returnId', 'type'],
    },
  ];
}
