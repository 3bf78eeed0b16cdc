import type { ReviewedQuery } from '../database/reviewed-query';
import { claimRemindersSql } from './integration-keys.repository';
import { VERIFY_KEY } from './verify-key.query';

/** The key check's statement (ReviewedQuery); its CTE form is in the statements that carry it. */
export function reviewedQueries(): ReviewedQuery[] {
  return [
    {
      ...VERIFY_KEY,
      purpose: 'The key check on every request with an integration key',
      parameters: ['fingerprint', 'settingsManage'],
    },
    ...(['7d', '1d'] as const).map((window) => ({
      name: `claim-key-reminders-${window}`,
      text: claimRemindersSql(window),
      purpose: `The expiry reminders' claim of the ${window} window: due keys marked reminded, each once`,
    })),
  ];
}
