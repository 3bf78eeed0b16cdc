import type { ReviewedQuery } from '../database/reviewed-query';
import type { DomainEventsSql } from '../domain-events/domain-events.sql';
import { applyChanges, MOVEMENTS } from './stock-ledger';

/** The stock ledger's statements (ReviewedQuery). */
export function reviewedQueries(events: DomainEventsSql): ReviewedQuery[] {
  return [
    {
      ...applyChanges(events),
      purpose: 'Stock changes of one cause, their ledger rows and stock events, with what the subscribers write',
      parameters: [
        'sizeIds',
        'deltas',
        'brandId',
        'actorKind',
        'actorId',
        'movementSizeIds',
        'movementDeltas',
        'reasons',
        'orderIds',
        'acceptanceIds',
        'notes',
        'causeReason',
        'causeOrderId',
        'causeReturnId',
      ],
    },
    {
      name: 'stock-movements',
      text: MOVEMENTS,
      purpose: 'A brand’s ledger rows, newest first',
      parameters: ['brandId', 'sizeId', 'limit'],
    },
  ];
}
