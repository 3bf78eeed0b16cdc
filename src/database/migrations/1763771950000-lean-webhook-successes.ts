import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery's successful attempt is kept on the delivery itself, written by the update that
 * settles it, instead of a row of webhook_attempts with its two index entries: most deliveries
 * succeed at once, and only failures need a history (docs/performance.md, PERF-25). Adding
 * columns without defaults rewrites nothing.
 */
export class LeanWebhookSuccesses1763771950000 implements MigrationInterface {
  name = 'LeanWebhookSuccesses1763771950000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhook_deliveries" ADD "succeeded_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`ALTER TABLE "webhook_deliveries" ADD "success_status" smallint`);
    await q.query(`ALTER TABLE "webhook_deliveries" ADD "success_duration_ms" integer`);
    await q.query(`ALTER TABLE "webhook_deliveries" ADD "success_body" character varying(1024)`);
    // A kept success is whole, and only on a delivery that is settled by it (a resend moves it to the attempts first).
    await q.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "ck_webhook_deliveries_success" CHECK ("succeeded_at" IS NULL OR ("status" = 'succeeded' AND "success_status" IS NOT NULL AND "success_duration_ms" IS NOT NULL))`,
    );
    await q.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "ck_webhook_deliveries_success_parts" CHECK ("succeeded_at" IS NOT NULL OR ("success_status" IS NULL AND "success_duration_ms" IS NULL AND "success_body" IS NULL))`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    // The successes kept on their deliveries become attempt rows again.
    await q.query(
      `INSERT INTO "webhook_attempts" ("delivery_id", "at", "response_status", "duration_ms", "response_body")
       SELECT "id", "succeeded_at", "success_status", "success_duration_ms", "success_body"
         FROM "webhook_deliveries" WHERE "succeeded_at" IS NOT NULL`,
    );
    await q.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "ck_webhook_deliveries_success_parts"`);
    await q.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "ck_webhook_deliveries_success"`);
    await q.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "success_body"`);
    await q.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "success_duration_ms"`);
    await q.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "success_status"`);
    await q.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "succeeded_at"`);
  }
}
