import type { ReviewedQuery } from '../database/reviewed-query';
import type { DomainEventsSql } from '../domain-events/domain-events.sql';
import {
  FILTER_FIELDS,
  filteredList,
  LIST_ORDERS,
  LIST_ORDERS_WITH_KEY,
  type OrderListFilter,
} from './order-list.query';
import {
  ACCEPT_STOREFRONT_ORDER_PARAMS,
  ACCEPT_STOREFRONT_ORDER_WITH_KEY_PARAMS,
  FIND_BY_PARTNER_ID,
  INSERT_ORDER,
  INSERT_ORDER_PARAMS,
  storefrontStatements,
} from './order-statements';
import { ORDER_EVENT } from './orders.repository';

/** Every combination of the list's filters but none, each field present once. */
function filterCombinations(): OrderListFilter[] {
  const combinations: OrderListFilter[] = [];
  for (let mask = 1; mask < 1 << FILTER_FIELDS.length; mask++) {
    combinations.push(
      Object.fromEntries(FILTER_FIELDS.filter((_, i) => mask & (1 << i)).map((field) => [field, 'given'])),
    );
  }
  return combinations;
}

/** The statements the orders module prepares or composes (ReviewedQuery). */
export function reviewedQueries(events: DomainEventsSql): ReviewedQuery[] {
  const storefront = storefrontStatements(events);
  const storefrontParameters = ACCEPT_STOREFRONT_ORDER_PARAMS.names;
  const withKeyParameters = ACCEPT_STOREFRONT_ORDER_WITH_KEY_PARAMS.names;
  const lists = filterCombinations().flatMap((filter) => {
    const list = filteredList(filter)!;
    const filters = FILTER_FIELDS.filter((field) => field in filter);
    return [
      {
        ...list.plain,
        purpose: `A page of a brand’s orders by ${filters.join(', ')}`,
        parameters: ['brandId', 'limit', 'offset', ...filters],
      },
      {
        ...list.withKey,
        purpose: `A page of a brand’s orders by ${filters.join(', ')}, the integration key checked in it`,
        parameters: ['keyFingerprint', 'keyPermission', 'settingsManage', 'limit', 'offset', ...filters],
      },
    ];
  });
  return [
    {
      ...storefront.plain.full,
      purpose: 'A storefront order, for a brand something listens to',
      parameters: storefrontParameters,
    },
    {
      ...storefront.plain.unheard,
      purpose: 'A storefront order, without the subscribers’ parts (a brand none listens to)',
      parameters: storefrontParameters,
    },
    {
      ...storefront.withKey.full,
      purpose: 'A storefront order with the integration key checked in the statement',
      parameters: withKeyParameters,
    },
    {
      ...storefront.withKey.unheard,
      purpose: 'A storefront order with the key checked in the statement, without the subscribers’ parts',
      parameters: withKeyParameters,
    },
    {
      ...FIND_BY_PARTNER_ID,
      purpose: 'A brand’s order by its partnerOrderId',
      parameters: ['brandId', 'partnerOrderId'],
    },
    { ...INSERT_ORDER, purpose: 'A platform order with its lines', parameters: INSERT_ORDER_PARAMS.names },
    { ...LIST_ORDERS, purpose: 'A page of a brand’s orders', parameters: ['brandId', 'limit', 'offset'] },
    {
      ...LIST_ORDERS_WITH_KEY,
      purpose: 'A page of a brand’s orders, the integration key checked in the statement',
      parameters: ['keyFingerprint', 'keyPermission', 'settingsManage', 'limit', 'offset'],
    },
    ...lists,
    {
      name: 'append-order-event',
      text: events.append(ORDER_EVENT),
      purpose: 'An order’s event, with what its subscribers write',
      parameters: ['orderId', 'type'],
    },
  ];
}
