import type { ReviewedQuery } from '../database/reviewed-query';
import { journalPageSql, type JournalQuery } from './security-journal.repository';

const PAGES: Array<{ name: string; purpose: string; query: JournalQuery; parameters: string[] }> = [
  { name: 'journal-page', purpose: 'A page of the platform’s journal', query: { limit: 50 }, parameters: ['limit'] },
  {
    name: 'journal-page-of-brand',
    purpose: 'A page of a brand’s journal: the entries it acted in and those about it',
    query: { limit: 50, brandId: 1 },
    parameters: ['limit', 'brandId'],
  },
  {
    name: 'journal-page-of-brand-by-type-before',
    purpose: 'A page of a brand’s journal of some types, older than an entry',
    query: { limit: 50, brandId: 1, types: ['x'], beforeId: 1 },
    parameters: ['limit', 'types', 'beforeId', 'brandId'],
  },
  {
    name: 'journal-page-of-account',
    purpose: 'A page of an account’s own entries (GET /auth/activity)',
    query: { limit: 50, accountId: 1 },
    parameters: ['limit', 'accountId'],
  },
];

/** The journal's composed pages (ReviewedQuery): one for each way of reading it, with and without its filters. */
export function reviewedQueries(): ReviewedQuery[] {
  return PAGES.map(({ name, purpose, query, parameters }) => ({
    name,
    text: journalPageSql(query).text,
    purpose,
    parameters,
  }));
}
