import type { ReviewedQuery } from '../database/reviewed-query';
import { VERIFY_KEY } from './verify-key.query';

/** The key check's statement (ReviewedQuery); its CTE form is in the statements that carry it. */
export function reviewedQueries(): ReviewedQuery[] {
  return [
    {
      ...VERIFY_KEY,
      purpose: 'The key check on every request with an integration key',
      parameters: ['fingerprint', 'settingsManage'],
    },
  ];
}
