import type { ReviewedQuery } from '../database/reviewed-query';
import { CLAIM_DELIVERIES, PRUNE_MESSAGES_BATCH } from './webhook-deliveries.repository';

/** The outbound webhooks' statements (ReviewedQuery); their fan-out is in every event append. */
export function reviewedQueries(): ReviewedQuery[] {
  return [
    {
      name: 'claim-webhook-deliveries',
      text: CLAIM_DELIVERIES,
      purpose: 'The delivery worker’s claim: due deliveries, a bounded number an endpoint, leased',
      parameters: ['token', 'limit', 'perEndpoint', 'leaseSeconds', 'answeredIds'],
    },
    {
      name: 'prune-webhook-messages-batch',
      text: PRUNE_MESSAGES_BATCH,
      purpose: 'A batch of the webhook log’s pruning: the oldest settled messages past the retention',
      parameters: ['retentionDays'],
    },
  ];
}
