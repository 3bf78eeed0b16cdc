import type { ReviewedQuery } from '../database/reviewed-query';
import { PRUNE_BATCH_SQL } from './request-log.repository';

/** The request log's composed statements (ReviewedQuery). */
export function reviewedQueries(): ReviewedQuery[] {
  return [
    {
      name: 'prune-request-log-batch',
      text: PRUNE_BATCH_SQL,
      purpose: 'A batch of the request log’s pruning: the oldest failures and counts past 30 days',
      parameters: ['lockKey', 'days'],
    },
  ];
}
