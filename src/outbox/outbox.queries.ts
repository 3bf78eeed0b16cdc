import type { ReviewedQuery } from '../database/reviewed-query';
import { CLAIM_JOBS } from './outbox-jobs.repository';

/** The outbox's statements (ReviewedQuery). */
export function reviewedQueries(): ReviewedQuery[] {
  return [
    {
      name: 'claim-outbox-jobs',
      text: CLAIM_JOBS,
      purpose: 'The outbox worker’s claim: due jobs no live lease holds, leased',
      parameters: ['token', 'leaseSeconds', 'batch'],
    },
  ];
}
