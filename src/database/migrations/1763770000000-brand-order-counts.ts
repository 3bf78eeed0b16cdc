import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The order list's `total` as a kept count instead of count(*) over every order of the brand on
 * each request (1 ms at 15 000 orders, and growing). Triggers keep it in the same transaction as
 * the rows, whoever writes them, so it is exact in every snapshot. The count is spread over 16
 * slots by order id: concurrent orders of one brand update different rows and do not queue on one.
 */
export class BrandOrderCounts1763770000000 implements MigrationInterface {
  name = 'BrandOrderCounts1763770000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "brand_order_counts" (
        "brand_id" integer NOT NULL,
        "slot" smallint NOT NULL,
        "orders" bigint NOT NULL,
        PRIMARY KEY ("brand_id", "slot"),
        CONSTRAINT "fk_brand_order_counts_brand" FOREIGN KEY ("brand_id") REFERENCES "brands"("id")
      )`);
    // Another instance may be writing orders while this runs: hold them off until the count is taken.
    await q.query(`LOCK TABLE "orders" IN SHARE ROW EXCLUSIVE MODE`);
    // Sorted, so that a statement writing orders of several slots takes the slot locks in one order.
    await q.query(`
      CREATE FUNCTION "count_inserted_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO brand_order_counts (brand_id, slot, orders)
        SELECT brand_id, id % 16, count(*) FROM inserted GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (brand_id, slot) DO UPDATE SET orders = brand_order_counts.orders + EXCLUDED.orders;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION "count_deleted_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE brand_order_counts c SET orders = c.orders - d.n
          FROM (SELECT brand_id, id % 16 AS slot, count(*) AS n FROM deleted GROUP BY 1, 2 ORDER BY 1, 2) d
         WHERE c.brand_id = d.brand_id AND c.slot = d.slot;
        RETURN NULL;
      END $$`);
    // A count per brand holds only while an order stays in its brand.
    await q.query(`
      CREATE FUNCTION "keep_order_brand"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'an order never changes brand (order %)', OLD.id;
      END $$`);
    await q.query(`
      CREATE TRIGGER "orders_count_inserted" AFTER INSERT ON "orders"
        REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION count_inserted_orders()`);
    await q.query(`
      CREATE TRIGGER "orders_count_deleted" AFTER DELETE ON "orders"
        REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION count_deleted_orders()`);
    await q.query(`
      CREATE TRIGGER "orders_keep_brand" BEFORE UPDATE OF "brand_id" ON "orders"
        FOR EACH ROW WHEN (OLD.brand_id IS DISTINCT FROM NEW.brand_id) EXECUTE FUNCTION keep_order_brand()`);
    await q.query(`
      INSERT INTO "brand_order_counts" ("brand_id", "slot", "orders")
      SELECT "brand_id", "id" % 16, count(*) FROM "orders" GROUP BY 1, 2`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "orders_keep_brand" ON "orders"`);
    await q.query(`DROP TRIGGER "orders_count_deleted" ON "orders"`);
    await q.query(`DROP TRIGGER "orders_count_inserted" ON "orders"`);
    await q.query(`DROP FUNCTION "keep_order_brand"()`);
    await q.query(`DROP FUNCTION "count_deleted_orders"()`);
    await q.query(`DROP FUNCTION "count_inserted_orders"()`);
    await q.query(`DROP TABLE "brand_order_counts"`);
  }
}
