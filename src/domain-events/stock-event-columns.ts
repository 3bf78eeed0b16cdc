import { jsonbObjectOf, type SqlFieldsOf } from '../database/json-object.sql';
import type { StockChangedData } from '../stock-ledger/dto/stock-changed-data';

/**
 * A `stock.changed` event's data but its size (the event's subject) and `sequence` (the event's
 * own): SQL expressions of the values to keep.
 */
export type StockEventValues = SqlFieldsOf<Omit<StockChangedData, 'sizeId' | 'sequence'>>;

/**
 * Where domain_events keeps each of them, and its type (migration StockEventStorage): a storefront
 * order writes a stock event a size, and typed columns cost PostgreSQL far less to write than a
 * jsonb built for each (docs/performance.md, PERF-28). `data` is NULL for these events.
 */
const COLUMNS: { readonly [K in keyof StockEventValues]: readonly [column: string, type: string] } = {
  productId: ['stock_product_id', 'int'],
  article: ['stock_article', 'text'],
  storefrontArticle: ['stock_storefront_article', 'text'],
  size: ['stock_size', 'text'],
  delta: ['stock_delta', 'int'],
  stock: ['stock_after', 'int'],
  reason: ['stock_reason', 'text'],
  orderId: ['stock_order_id', 'int'],
  returnId: ['stock_return_id', 'int'],
};

const FIELDS = Object.keys(COLUMNS) as Array<keyof StockEventValues>;

/** The stock columns, in the order of stockColumnValues. */
export const STOCK_EVENT_COLUMNS: readonly string[] = FIELDS.map((f) => COLUMNS[f][0]);

/** The values of the stock columns, in their order: `values`, or NULLs of their types for any other event. */
export const stockColumnValues = (values: StockEventValues | null): string[] =>
  FIELDS.map((f) => (values ? `(${values[f]})::${COLUMNS[f][1]}` : `NULL::${COLUMNS[f][1]}`));

/**
 * An event's data as its row `alias` of domain_events keeps it: its `data`, or for a stock event
 * the object its class describes, built from its columns. The webhook messages and the events API
 * both read it so, and jsonb keeps no key order, so both give the same object.
 */
export function eventDataSql(alias: string): string {
  const kept = Object.fromEntries(FIELDS.map((f) => [f, `${alias}.${COLUMNS[f][0]}`])) as StockEventValues;
  const stock = jsonbObjectOf<StockChangedData>({
    sizeId: `${alias}.subject_id`,
    ...kept,
    sequence: `${alias}.sequence`,
  });
  return `COALESCE(${alias}.data, ${stock})`;
}
