import { jsonbObjectOf, type SqlFieldsOf } from '../database/json-object.sql';
import type { EventColumns } from '../domain-events/event-columns';
import type { StockChangedData } from './dto/stock-changed-data';

/** A `stock.changed` event's data but its size (the event's subject) and `sequence` (the event's own). */
export type StockEventField = keyof Omit<StockChangedData, 'sizeId' | 'sequence'>;

/**
 * How the stock ledger keeps its `stock.changed` events (migration StockEventStorage): a storefront
 * order writes one a size, in typed columns (docs/performance.md, PERF-28).
 */
export const STOCK_EVENT_COLUMNS: EventColumns<StockEventField> = {
  subject: 'size',
  columns: {
    productId: ['stock_product_id', 'int'],
    article: ['stock_article', 'text'],
    storefrontArticle: ['stock_storefront_article', 'text'],
    size: ['stock_size', 'text'],
    delta: ['stock_delta', 'int'],
    stock: ['stock_after', 'int'],
    reason: ['stock_reason', 'text'],
    orderId: ['stock_order_id', 'int'],
    returnId: ['stock_return_id', 'int'],
  },
  data: (alias) => {
    const kept = Object.fromEntries(
      Object.entries(STOCK_EVENT_COLUMNS.columns).map(([field, [column]]) => [field, `${alias}.${column}`]),
    ) as SqlFieldsOf<Omit<StockChangedData, 'sizeId' | 'sequence'>>;
    return jsonbObjectOf<StockChangedData>({ sizeId: `${alias}.subject_id`, ...kept, sequence: `${alias}.sequence` });
  },
};
