import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A brand's returns counted by status, kept by triggers, so the returns list's total reads a few
 * rows instead of counting every return of a brand a few years old (contract §21).
 */
export class BrandReturnCounts1763773000000 implements MigrationInterface {
  name = 'BrandReturnCounts1763773000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "brand_return_counts" (
        "brand_id" integer NOT NULL,
        "status" varchar(24) NOT NULL,
        "returns" bigint NOT NULL,
        PRIMARY KEY ("brand_id", "status"),
        CONSTRAINT "fk_brand_return_counts_brand" FOREIGN KEY ("brand_id") REFERENCES "brands"("id")
      )`);
    // Another instance may be writing returns while this runs: hold them off until the count is taken.
    await q.query(`LOCK TABLE "returns" IN SHARE ROW EXCLUSIVE MODE`);
    // One statement, its rows sorted: two transactions moving returns between the same two states
    // in opposite directions take the count rows' locks in one order and cannot deadlock. A row
    // trigger, as the service moves one return a statement; an UPDATE of many returns by hand takes
    // the count rows in its rows' order (a statement trigger cannot name columns and see the rows).
    // Never a count of the same row twice: an UPDATE that keeps status and brand fires nothing.
    await q.query(`
      CREATE FUNCTION "count_return_change"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO brand_return_counts (brand_id, status, returns)
        SELECT c.brand_id, c.status, sum(c.n) FROM (
          SELECT OLD.brand_id AS brand_id, OLD.status AS status, -1 AS n WHERE TG_OP <> 'INSERT'
          UNION ALL
          SELECT NEW.brand_id, NEW.status, 1 WHERE TG_OP <> 'DELETE'
        ) c GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (brand_id, status) DO UPDATE SET returns = brand_return_counts.returns + EXCLUDED.returns;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER "returns_counted" AFTER INSERT OR DELETE ON "returns"
        FOR EACH ROW EXECUTE FUNCTION count_return_change()`);
    await q.query(`
      CREATE TRIGGER "returns_recounted" AFTER UPDATE OF "brand_id", "status" ON "returns"
        FOR EACH ROW WHEN (OLD.brand_id IS DISTINCT FROM NEW.brand_id OR OLD.status IS DISTINCT FROM NEW.status)
        EXECUTE FUNCTION count_return_change()`);
    await q.query(`
      INSERT INTO "brand_return_counts" ("brand_id", "status", "returns")
      SELECT "brand_id", "status", count(*) FROM "returns" GROUP BY 1, 2`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "returns_recounted" ON "returns"`);
    await q.query(`DROP TRIGGER "returns_counted" ON "returns"`);
    await q.query(`DROP FUNCTION "count_return_change"()`);
    await q.query(`DROP TABLE "brand_return_counts"`);
  }
}
