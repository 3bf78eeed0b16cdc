import type { ReviewedQuery } from '../database/reviewed-query';
import type { DomainEventsSql } from '../domain-events/domain-events.sql';
import { IMPORT_EVENTS } from './catalog-import.repository';
import { LOOKUP_STOREFRONT_LINES, MATCH_BY_ARTICLE, PRODUCT_EVENT } from './catalog.repository';

/** The statements the catalog prepares or composes (ReviewedQuery). */
export function reviewedQueries(events: DomainEventsSql): ReviewedQuery[] {
  return [
    { ...MATCH_BY_ARTICLE, purpose: 'Products and sizes of a brand by article', parameters: ['brandId', 'articles'] },
    {
      ...LOOKUP_STOREFRONT_LINES,
      purpose: 'A storefront order’s lines matched to the brand’s sizes (the preflight)',
      parameters: ['brandId', 'storefrontArticles', 'sizeKeys', 'quantities', 'givenPrices'],
    },
    {
      name: 'append-product-event',
      text: events.append(PRODUCT_EVENT),
      purpose: 'A product’s event, with what its subscribers write',
      parameters: ['productId', 'type'],
    },
    {
      name: 'append-import-events',
      text: events.append(IMPORT_EVENTS),
      purpose: 'The product events of a catalog import, with what their subscribers write',
      parameters: ['createdIds', 'changedIds'],
    },
  ];
}
