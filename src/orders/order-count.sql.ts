/**
 * The order list's `total` is a kept count per brand, in slots by connection (docs/performance.md,
 * PERF-21). A statement that inserts an order adds it itself, with this CTE over its one-row
 * `RETURNING` (none when the order was not written), and inserts it with `counted` true
 * (ORDER_COUNTED); the insert trigger counts every order written otherwise (migration
 * OrderCountInStatement, PERF-30).
 */
export const countOrderSql = (created: string) =>
  `INSERT INTO brand_order_counts (brand_id, slot, orders) SELECT brand_id, pg_backend_pid() % 64, 1 FROM ${created}
   ON CONFLICT (brand_id, slot) DO UPDATE SET orders = brand_order_counts.orders + 1`;

/** The column and value that tell the insert trigger the statement counts the order itself. */
export const ORDER_COUNTED = { column: 'counted', value: 'true' } as const;
