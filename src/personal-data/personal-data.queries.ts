import type { ReviewedQuery } from '../database/reviewed-query';
import { PERSONAL_DATA_MAP } from './personal-data-map';
import { anonymiseSql, CLAIM_DUE_FOR_RETENTION } from './personal-data.repository';

/** The statements of buyers' personal data (ReviewedQuery): the retention's claim and the erasure's. */
export function reviewedQueries(): ReviewedQuery[] {
  return [
    {
      name: 'claim-due-for-retention',
      text: CLAIM_DUE_FOR_RETENTION,
      purpose: 'The retention sweep’s claim: finished orders past their brand’s retention, locked, SKIP LOCKED',
      parameters: ['batch'],
    },
    ...PERSONAL_DATA_MAP.map((copy) => ({
      name: `anonymise-${copy.table.replace(/_/g, '-')}`,
      text: anonymiseSql(copy),
      purpose: `Erasure: empties the buyer's data that ${copy.table} holds for the orders`,
      parameters: ['orderIds'],
    })),
  ];
}
