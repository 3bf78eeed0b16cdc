import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The statements that write orders add them to their brand's count themselves (order-count.sql.ts)
 * and mark them `counted`; the insert trigger counts every other order, one by one. The statement
 * trigger it replaces kept each inserted row in a transition table and ran a PL/pgSQL function on
 * every storefront order, about 45 µs of its PostgreSQL CPU (docs/performance.md, PERF-30); a row
 * trigger whose WHEN is false costs the test of a boolean. So every order is still counted
 * once whoever writes it: an order inserted by hand, or by the build before this one while
 * instances roll over (the column's default), by the trigger.
 */
export class OrderCountInStatement1763772500000 implements MigrationInterface {
  name = 'OrderCountInStatement1763772500000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "orders" ADD "counted" boolean NOT NULL DEFAULT false`);
    await q.query(`
      CREATE FUNCTION "count_inserted_order"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO brand_order_counts (brand_id, slot, orders) VALUES (NEW.brand_id, pg_backend_pid() % 64, 1)
        ON CONFLICT (brand_id, slot) DO UPDATE SET orders = brand_order_counts.orders + 1;
        RETURN NULL;
      END $$`);
    await q.query(`DROP TRIGGER "orders_count_inserted" ON "orders"`);
    await q.query(`DROP FUNCTION "count_inserted_orders"()`);
    await q.query(`
      CREATE TRIGGER "orders_count_inserted" AFTER INSERT ON "orders"
      FOR EACH ROW WHEN (NOT NEW.counted) EXECUTE FUNCTION count_inserted_order()`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION "count_inserted_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO brand_order_counts (brand_id, slot, orders)
        SELECT brand_id, pg_backend_pid() % 64, count(*) FROM inserted GROUP BY 1 ORDER BY 1
        ON CONFLICT (brand_id, slot) DO UPDATE SET orders = brand_order_counts.orders + EXCLUDED.orders;
        RETURN NULL;
      END $$`);
    await q.query(`DROP TRIGGER "orders_count_inserted" ON "orders"`);
    await q.query(`DROP FUNCTION "count_inserted_order"()`);
    await q.query(`
      CREATE TRIGGER "orders_count_inserted" AFTER INSERT ON "orders"
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION count_inserted_orders()`);
    await q.query(`ALTER TABLE "orders" DROP COLUMN "counted"`);
  }
}
