import { tenantOrderSql, tenantRowsSql } from '../database/tenant-rows.sql';
import type { ReturnStatus } from './return-states';

/** The returns list's filters (contract §8) and `before` (§21: returns older than that id). */
export interface ReturnListFilter {
  status?: ReturnStatus;
  orderId?: number;
  before?: number;
}

/** Each filter's condition, given its parameter, in the order of their parameters; `before` places the page and is not counted. */
const CONDITIONS: ReadonlyArray<{
  field: keyof ReturnListFilter;
  sql: (param: string) => string;
  counted: boolean;
}> = [
  { field: 'status', sql: (p) => `status = ${p}`, counted: true },
  { field: 'orderId', sql: (p) => `order_id = ${p}`, counted: true },
  { field: 'before', sql: (p) => `id < ${p}`, counted: false },
];

export const RETURN_LIST_FIELDS = CONDITIONS.map((c) => c.field);

/** A page's statement and its total's, for the filters given ($1 brand, $2 limit, $3 offset, then the filters' values). */
export interface ReturnListStatements {
  page: string;
  total: string;
  /** The page's parameter values after the first three; the total takes $1 and the counted ones. */
  values: unknown[];
  totalValues: unknown[];
}

/**
 * The statements of one combination of filters, each with only its own conditions: under the
 * service's generic plans a `$n IS NULL OR …` branch is planned as present. The page reads the
 * brand's rows by tenantRowsSql, so no plan walks another brand's returns. Without `orderId` the
 * total reads brand_return_counts (kept by triggers), not every return of the brand; an order's
 * returns are few and counted by its index.
 */
export function returnListStatements(columns: string, filter: ReturnListFilter): ReturnListStatements {
  const present = CONDITIONS.filter((c) => filter[c.field] !== undefined);
  const brand = tenantRowsSql('brand_id', '$1');
  const pageWhere = [brand, ...present.map((c, i) => c.sql(`$${4 + i}`))].join(' AND ');
  const counted = present.filter((c) => c.counted);
  const totalWhere = [brand, ...counted.map((c, i) => c.sql(`$${2 + i}`))].join(' AND ');
  const total =
    filter.orderId === undefined
      ? `SELECT COALESCE(sum(returns), 0)::int AS n FROM brand_return_counts WHERE ${totalWhere}`
      : `SELECT count(*)::int AS n FROM returns WHERE ${totalWhere}`;
  return {
    page: `SELECT ${columns} FROM returns WHERE ${pageWhere}
            ORDER BY ${tenantOrderSql('brand_id')}, id DESC LIMIT $2 OFFSET $3`,
    total,
    values: present.map((c) => filter[c.field]),
    totalValues: counted.map((c) => filter[c.field]),
  };
}
