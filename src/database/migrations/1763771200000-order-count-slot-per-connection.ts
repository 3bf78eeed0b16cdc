import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The brand's order count slot is the writing connection's (backend pid % 64), not the order's
 * (id % 16). By order id, concurrent orders of one brand fell on the same slot as often as not,
 * and each waited for the other's commit to add one to it (docs/performance.md, PERF-21); a
 * connection runs one transaction at a time, so by connection two orders share a
 * slot only when their connections do. A deletion subtracts from its own connection's slot, which
 * may go below zero: the total is the sum of a brand's slots.
 */
export class OrderCountSlotPerConnection1763771200000 implements MigrationInterface {
  name = 'OrderCountSlotPerConnection1763771200000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION "count_inserted_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO brand_order_counts (brand_id, slot, orders)
        SELECT brand_id, pg_backend_pid() % 64, count(*) FROM inserted GROUP BY 1 ORDER BY 1
        ON CONFLICT (brand_id, slot) DO UPDATE SET orders = brand_order_counts.orders + EXCLUDED.orders;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION "count_deleted_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO brand_order_counts (brand_id, slot, orders)
        SELECT brand_id, pg_backend_pid() % 64, -count(*) FROM deleted GROUP BY 1 ORDER BY 1
        ON CONFLICT (brand_id, slot) DO UPDATE SET orders = brand_order_counts.orders + EXCLUDED.orders;
        RETURN NULL;
      END $$`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION "count_inserted_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO brand_order_counts (brand_id, slot, orders)
        SELECT brand_id, id % 16, count(*) FROM inserted GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (brand_id, slot) DO UPDATE SET orders = brand_order_counts.orders + EXCLUDED.orders;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION "count_deleted_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE brand_order_counts c SET orders = c.orders - d.n
          FROM (SELECT brand_id, id % 16 AS slot, count(*) AS n FROM deleted GROUP BY 1, 2 ORDER BY 1, 2) d
         WHERE c.brand_id = d.brand_id AND c.slot = d.slot;
        RETURN NULL;
      END $$`);
    // The counts were kept per connection: spread them again by order id, as the old triggers expect.
    await q.query(`LOCK TABLE "orders" IN SHARE ROW EXCLUSIVE MODE`);
    await q.query(`DELETE FROM "brand_order_counts"`);
    await q.query(`
      INSERT INTO "brand_order_counts" ("brand_id", "slot", "orders")
      SELECT "brand_id", "id" % 16, count(*) FROM "orders" GROUP BY 1, 2`);
  }
}
