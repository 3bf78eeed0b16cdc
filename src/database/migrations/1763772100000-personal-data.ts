import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Buyers' personal data (contract §17): the time an order was anonymised, and each brand's
 * retention in days (no row, or `days` null: kept until erased). The erasure finds an order's
 * follow-up jobs that quote an error by the order id in their payload.
 */
export class PersonalData1763772100000 implements MigrationInterface {
  name = 'PersonalData1763772100000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "orders" ADD "personal_data_erased_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(
      `CREATE TABLE "personal_data_retention" ("brand_id" integer NOT NULL, "days" integer, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_personal_data_retention_days" CHECK ("days" IS NULL OR ("days" >= 0 AND "days" <= 3650)), CONSTRAINT "PK_personal_data_retention" PRIMARY KEY ("brand_id"))`,
    );
    await q.query(
      `ALTER TABLE "personal_data_retention" ADD CONSTRAINT "fk_personal_data_retention_brand" FOREIGN KEY ("brand_id") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // The orders the retention sweep may take: final and not yet anonymised (a new order is neither: it pays nothing).
    await q.query(
      `CREATE INDEX "ix_orders_retention_due" ON "orders" ("brand_id", "updated_at") WHERE "personal_data_erased_at" IS NULL AND "status" IN ('completed', 'returned', 'cancelled')`,
    );
    // Only jobs that may quote a buyer (an error text) are indexed: the order's own insert of a job pays nothing.
    await q.query(
      `CREATE INDEX "ix_outbox_order" ON "outbox" (("payload" ->> 'orderId'))
        WHERE "last_error" IS NOT NULL OR "payload" ? 'lastError'`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."ix_outbox_order"`);
    await q.query(`DROP INDEX "public"."ix_orders_retention_due"`);
    await q.query(`DROP TABLE "personal_data_retention"`);
    await q.query(`ALTER TABLE "orders" DROP COLUMN "personal_data_erased_at"`);
  }
}
