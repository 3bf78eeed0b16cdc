import type { ReviewedQuery } from '../database/reviewed-query';
import { PERSONAL_DATA_MAP } from './personal-data-map';
import { anonymiseSql, buyerOrdersSql, CLAIM_DUE_FOR_RETENTION, type BuyerMatch } from './personal-data.repository';

const MATCHES: Array<{ by: string; match: BuyerMatch; parameters: string[] }> = [
  { by: 'phone', match: { by: 'phone', asSent: 'x', normalized: 'x' }, parameters: ['phoneE164', 'phoneAsSent'] },
  { by: 'email', match: { by: 'email', email: 'x' }, parameters: ['email'] },
  { by: 'order-id', match: { by: 'orderId', orderId: 1 }, parameters: ['orderId'] },
];

/** The statements that find a buyer's orders, for each way of naming the buyer. */
const buyerQueries = (): ReviewedQuery[] =>
  MATCHES.flatMap(({ by, match, parameters }) => {
    const statements = buyerOrdersSql(match);
    return [
      {
        name: `lock-buyer-orders-by-${by}`,
        text: statements.locked,
        purpose: `Erasure: the buyer's orders (by ${by}) in a final state, locked`,
        parameters: ['brandId', ...parameters, 'finalStatuses'],
      },
      {
        name: `other-buyer-orders-by-${by}`,
        text: statements.others,
        purpose: `Erasure: the buyer's other orders (by ${by}), read without a lock`,
        parameters: ['brandId', ...parameters, 'lockedIds'],
      },
      {
        name: `unerased-buyer-orders-by-${by}`,
        text: statements.unerased,
        purpose: `Export: the buyer's orders (by ${by}) not yet anonymised`,
        parameters: ['brandId', ...parameters],
      },
    ];
  });

/** The statements of buyers' personal data (ReviewedQuery): the retention's claim and the erasure's. */
export function reviewedQueries(): ReviewedQuery[] {
  return [
    ...buyerQueries(),
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
