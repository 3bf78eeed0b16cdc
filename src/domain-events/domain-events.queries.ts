import type { ReviewedQuery } from '../database/reviewed-query';
import { EVENTS_HORIZON_LAG } from './events-horizon.sql';
import type { DomainEventsSql } from './domain-events.sql';
import { eventsPage, PRUNE_EVENTS_BATCH } from './events.repository';

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
      name: 'prune-events-batch',
      text: PRUNE_EVENTS_BATCH,
      purpose: 'A batch of the pruning: the oldest events past the retention, their subjects’ numbers kept',
      parameters: ['lockKey', 'retentionDays'],
    },
    {
      name: 'events-horizon-lag',
      text: EVENTS_HORIZON_LAG,
      purpose: 'How long this database’s oldest writer has held the horizon',
    },
  ];
}
