import type { ReviewedQuery } from '../database/reviewed-query';
import { EVENTS_HORIZON_LAG } from './events-horizon.sql';
import type { DomainEventsSql } from './domain-events.sql';
import { eventsPage } from './events.repository';

/** The events API's statements (ReviewedQuery); the appends are their owners'. */
export function reviewedQueries(events: DomainEventsSql): ReviewedQuery[] {
  return [
    {
      name: 'events-page',
      text: eventsPage(events),
      purpose: 'A page of a brand’s events after a cursor, below the readers’ horizon',
      parameters: ['brandId', 'types', 'afterPosition', 'afterId', 'limit'],
    },
    {
      name: 'events-horizon-lag',
      text: EVENTS_HORIZON_LAG,
      purpose: 'How long this database’s oldest writer has held the horizon',
    },
  ];
}
