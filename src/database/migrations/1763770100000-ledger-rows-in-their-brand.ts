import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A ledger row's brand is its size's brand, enforced by the database: a statement that writes
 * stock for a size of another brand fails as a whole, instead of relying on a count check after it.
 */
export class LedgerRowsInTheirBrand1763770100000 implements MigrationInterface {
  name = 'LedgerRowsInTheirBrand1763770100000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "product_sizes" ADD CONSTRAINT "uq_product_sizes_id_brand" UNIQUE ("id", "brand_id")`);
    await q.query(`ALTER TABLE "stock_movements" DROP CONSTRAINT "fk_stock_movements_size"`);
    await q.query(`
      ALTER TABLE "stock_movements" ADD CONSTRAINT "fk_stock_movements_size_brand"
        FOREIGN KEY ("size_id", "brand_id") REFERENCES "product_sizes"("id", "brand_id")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "stock_movements" DROP CONSTRAINT "fk_stock_movements_size_brand"`);
    await q.query(
      `ALTER TABLE "stock_movements" ADD CONSTRAINT "fk_stock_movements_size" FOREIGN KEY ("size_id") REFERENCES "product_sizes"("id")`,
    );
    await q.query(`ALTER TABLE "product_sizes" DROP CONSTRAINT "uq_product_sizes_id_brand"`);
  }
}
