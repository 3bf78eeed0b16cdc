import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `order_items (size_id)` and `stock_movements (order_id)` were only there for foreign keys whose
 * parents the service never deletes (sizes, orders); no query reads by them (order lines are
 * read by `(order_id, line)`, ledger rows by `(size_id, id)`). They cost two index insertions
 * per order line on the storefront webhook's hot path (docs/performance.md, PERF-22). An operator who
 * deletes an order or a size by hand now pays a scan of those tables for the foreign key check.
 */
export class UnreadLineIndexes1763770800000 implements MigrationInterface {
  name = 'UnreadLineIndexes1763770800000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_order_items_size"`);
    await q.query(`DROP INDEX "ix_stock_movements_order"`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "ix_stock_movements_order" ON "stock_movements" ("order_id")`);
    await q.query(`CREATE INDEX "ix_order_items_size" ON "order_items" ("size_id")`);
  }
}
