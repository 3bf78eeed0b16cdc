import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An order line's size is a size of the line's product, enforced by the database: one foreign
 * key on (size, product) instead of one on each. It holds what the two held (the size exists, so
 * its product does) and the pairing they did not, with one check per line fewer on the storefront
 * webhook's hot path (docs/performance.md, PERF-22).
 */
export class OrderLineSizeOfItsProduct1763770900000 implements MigrationInterface {
  name = 'OrderLineSizeOfItsProduct1763770900000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "product_sizes" ADD CONSTRAINT "uq_product_sizes_id_product" UNIQUE ("id", "product_id")`,
    );
    await q.query(`
      ALTER TABLE "order_items" ADD CONSTRAINT "fk_order_items_size_product"
        FOREIGN KEY ("size_id", "product_id") REFERENCES "product_sizes"("id", "product_id")`);
    await q.query(`ALTER TABLE "order_items" DROP CONSTRAINT "fk_order_items_size"`);
    await q.query(`ALTER TABLE "order_items" DROP CONSTRAINT "fk_order_items_product"`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "order_items" ADD CONSTRAINT "fk_order_items_product" FOREIGN KEY ("product_id") REFERENCES "products"("id")`,
    );
    await q.query(
      `ALTER TABLE "order_items" ADD CONSTRAINT "fk_order_items_size" FOREIGN KEY ("size_id") REFERENCES "product_sizes"("id")`,
    );
    await q.query(`ALTER TABLE "order_items" DROP CONSTRAINT "fk_order_items_size_product"`);
    await q.query(`ALTER TABLE "product_sizes" DROP CONSTRAINT "uq_product_sizes_id_product"`);
  }
}
