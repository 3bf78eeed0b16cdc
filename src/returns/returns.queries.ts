import type { ReviewedQuery } from '../database/reviewed-query';
import type { DomainEventsSql } from '../domain-events/domain-events.sql';
import { RETURN_LIST_FIELDS, returnListStatements, type ReturnListFilter } from './return-list.query';
import { COLUMNS, RETURN_EVENT } from './returns.repository';

/** The list's statements for every combination of its filters, none included. */
function listQueries(): ReviewedQuery[] {
  const queries: ReviewedQuery[] = [];
  for (let mask = 0; mask < 1 << RETURN_LIST_FIELDS.length; mask++) {
    const fields = RETURN_LIST_FIELDS.filter((_, i) => mask & (1 << i));
    const filter: ReturnListFilter = Object.fromEntries(fields.map((field) => [field, 'given']));
    const list = returnListStatements(COLUMNS, filter);
    const by = fields.length
      ? `-by-${fields.map((f) => f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)).join('-')}`
      : '';
    const counted = fields.filter((field) => field !== 'before');
    queries.push(
      {
        name: `list-returns${by}`,
        text: list.page,
        purpose: `A page of a brand’s returns${fields.length ? ` by ${fields.join(', ')}` : ''}`,
        parameters: ['brandId', 'limit', 'offset', ...fields],
      },
      ...(fields.includes('before')
        ? []
        : [
            {
              name: `count-returns${by}`,
              text: list.total,
              purpose: `How many of a brand’s returns the list counts${counted.length ? ` by ${counted.join(', ')}` : ''}`,
              parameters: ['brandId', ...counted],
            },
          ]),
    );
  }
  return queries;
}

/** The statements the returns module composes (ReviewedQuery). */
export function reviewedQueries(events: DomainEventsSql): ReviewedQuery[] {
  return [
    ...listQueries(),
    {
      name: 'append-return-event',
      text: events.append(RETURN_EVENT),
      purpose: 'A return’s event, with what its subscribers write',
      parameters: ['returnId', 'type'],
    },
  ];
}
