/**
 * Bounds that keep every sum of money exact: the largest order (every line at the largest
 * quantity and price, plus the largest delivery cost) stays below 2^53, so totals computed in
 * PostgreSQL's `bigint` are read back into JavaScript numbers without rounding.
 */
export const MAX_PRICE_KOPEKS = 100_000_000;
export const MAX_ORDER_LINES = 500;
export const MAX_LINE_QUANTITY = 100_000;
export const MAX_ORDER_TOTAL_KOPEKS = MAX_ORDER_LINES * MAX_LINE_QUANTITY * MAX_PRICE_KOPEKS + MAX_PRICE_KOPEKS;

if (!Number.isSafeInteger(MAX_ORDER_TOTAL_KOPEKS)) throw new Error('money bounds allow a total beyond 2^53');
