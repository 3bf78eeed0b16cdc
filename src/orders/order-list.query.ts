import { KeyCheckSql } from '../access-keys/verify-key.query';
import { isoTimestampSql } from '../database/iso-timestamp.sql';
import type { Prepared } from '../database/prepared';
import { tenantRowsSql, tenantOrderSql } from '../database/tenant-rows.sql';
import type { OrderStatus } from './order.entity';

/**
 * The list's filters (contract §16), combined with AND, and `before` (§21: orders older than that
 * id, the next page). `updatedSince` is an RFC 3339 date-time with its offset, as
 * ListOrdersQueryDto leaves it.
 */
export interface OrderListFilter {
  status?: OrderStatus;
  partnerOrderId?: string;
  updatedSince?: string;
  before?: number;
}

/**
 * Each filter's condition on a row of orders, given its parameter; in the order of their
 * parameters. `before` places the page and is left out of `total`, which counts what the filters keep.
 */
const CONDITIONS: ReadonlyArray<{
  field: keyof OrderListFilter;
  tag: string;
  sql: (param: string) => string;
  counted: boolean;
}> = [
  { field: 'status', tag: 'status', sql: (p) => `status = ${p}`, counted: true },
  { field: 'partnerOrderId', tag: 'partner_order_id', sql: (p) => `partner_order_id = ${p}`, counted: true },
  { field: 'updatedSince', tag: 'updated_since', sql: (p) => `updated_at >= ${p}::timestamptz`, counted: true },
  { field: 'before', tag: 'before', sql: (p) => `id < ${p}`, counted: false },
];

/**
 * The list's answer (OrderListResponse) as JSON text, built by PostgreSQL: a page of the brand's
 * orders (those `where` keeps), newest first, and `total`. Built here rather than from rows, the
 * answer costs the service no row description, row or date parsing and no serialisation
 * (docs/performance.md, PERF-21). `json`, not `jsonb`, keeps the keys in the order below.
 */
const pageJson = (where: string, limit: string, offset: string, total: string) =>
  `json_build_object(
     'items', COALESCE((
        SELECT json_agg(json_build_object(
                 'id', o.id, 'orderNumber', o.order_number, 'source', o.source, 'partnerOrderId', o.partner_order_id,
                 'status', o.status, 'paymentStatus', o.payment_status, 'deliveryStatus', o.delivery_status,
                 'stockShortage', o.stock_shortage, 'recipientName', o.recipient_full_name, 'totalKopeks', o.total_kopeks,
                 'orderedAt', ${isoTimestampSql('o.ordered_at')},
                 'createdAt', ${isoTimestampSql('o.created_at')},
                 'updatedAt', ${isoTimestampSql('o.updated_at')},
                 'personalDataErasedAt', ${isoTimestampSql('o.personal_data_erased_at')}) ORDER BY o.id DESC)
          FROM (SELECT * FROM orders WHERE ${where} ORDER BY ${tenantOrderSql('brand_id')}, id DESC
                 LIMIT ${limit} OFFSET ${offset}) o
     ), '[]'::json),
     'total', ${total}
   )::text`;

/**
 * Unfiltered, the total is the brand's, kept by triggers on orders (migration BrandOrderCounts: a
 * handful of rows, whatever the number of orders).
 */
const brandTotal = (brandId: string) =>
  `(SELECT COALESCE(sum(c.orders), 0) FROM brand_order_counts c WHERE c.brand_id = ${brandId})`;

const brandPageJson = (brandId: string, limit: string, offset: string) =>
  pageJson(tenantRowsSql('brand_id', brandId), limit, offset, brandTotal(brandId));

/** A page of a brand's orders ($1 brand, $2 limit, $3 offset): one row, `body`. */
export const LIST_ORDERS: Prepared = {
  name: 'list_orders',
  text: `SELECT ${brandPageJson('$1', '$2', '$3')} AS body`,
};

const keyCtes = KeyCheckSql.ctes({ fingerprint: '$1', permission: '$2', settingsManage: '$3' });

/**
 * LIST_ORDERS carrying the integration key check (PendingKeyCheck; $1 fingerprint, $2 the
 * permission, $3 SETTINGS_MANAGE, $4 limit, $5 offset): the brand is the key's, so a key that
 * fails reads nothing. One row: the key's outcome and `body`, null unless the key acted.
 */
export const LIST_ORDERS_WITH_KEY: Prepared = {
  name: 'list_orders_with_key',
  text: `WITH ${keyCtes}
       SELECT ${KeyCheckSql.outcome} AS key_check,
              (SELECT ${brandPageJson('k.brand_id', '$4', '$5')} FROM key_ok k) AS body`,
};

/** The fields a list may be filtered by, in the order of their parameters. */
export const FILTER_FIELDS = CONDITIONS.map((c) => c.field);

/** A filtered list's statements and the values of its filters, which follow the statement's own parameters. */
export interface FilteredList {
  /** As LIST_ORDERS, then the filters' values. */
  plain: Prepared;
  /** As LIST_ORDERS_WITH_KEY, then the filters' values. */
  withKey: Prepared;
  values: unknown[];
}

const filteredStatements = new Map<string, { plain: Prepared; withKey: Prepared }>();

/**
 * A page under the conditions `present`, the first given by parameter `$first`: the page keeps
 * them all, `total` those that count (else it is the brand's). Both read the brand's rows by
 * tenantRowsSql, so no plan walks another brand's orders.
 */
function filteredPageJson(present: typeof CONDITIONS, brandId: string, first: number, limit: string, offset: string) {
  const conditions = present.map((c, i) => ({ counted: c.counted, sql: c.sql(`$${first + i}`) }));
  const where = (kept: typeof conditions) =>
    [tenantRowsSql('brand_id', brandId), ...kept.map((c) => c.sql)].join(' AND ');
  const counted = conditions.filter((c) => c.counted);
  const total = counted.length === 0 ? brandTotal(brandId) : `(SELECT count(*) FROM orders WHERE ${where(counted)})`;
  return pageJson(where(conditions), limit, offset, total);
}

/**
 * The statements of a list with these filters, or null when none is given (LIST_ORDERS then).
 * One named statement per combination of filters, each with only its own conditions: the
 * service's generic plans (plan_cache_mode) cannot drop a `$n IS NULL OR …` branch, so a
 * catch-all statement would plan every filter as present.
 */
export function filteredList(filter: OrderListFilter): FilteredList | null {
  const present = CONDITIONS.filter((c) => filter[c.field] !== undefined);
  if (present.length === 0) return null;
  const tags = present.map((c) => c.tag).join('_');
  let statements = filteredStatements.get(tags);
  if (!statements) {
    statements = {
      plain: {
        name: `list_orders_by_${tags}`,
        text: `SELECT ${filteredPageJson(present, '$1', 4, '$2', '$3')} AS body`,
      },
      withKey: {
        name: `list_orders_by_${tags}_with_key`,
        text: `WITH ${keyCtes}
       SELECT ${KeyCheckSql.outcome} AS key_check,
              (SELECT ${filteredPageJson(present, 'k.brand_id', 6, '$4', '$5')} FROM key_ok k) AS body`,
      },
    };
    filteredStatements.set(tags, statements);
  }
  return { ...statements, values: present.map((c) => filter[c.field]) };
}
