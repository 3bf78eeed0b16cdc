import { MigrationInterface, QueryRunner } from 'typeorm';

export class PaymentCarrierFlows1763769900000 implements MigrationInterface {
  name = 'PaymentCarrierFlows1763769900000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "orders" ADD "paid_at" timestamptz`);
    await q.query(`ALTER TABLE "orders" ADD "delivery_status_at" timestamptz`);
    await q.query(`ALTER TABLE "orders" ADD "carrier_registration_failed_at" timestamptz`);
    await q.query(`CREATE INDEX "ix_orders_carrier_uuid" ON "orders" ("carrier_order_uuid")`);
    await q.query(`CREATE INDEX "ix_orders_carrier_tracking" ON "orders" ("carrier_tracking_number")`);

    // One row per processed inbound event: the primary key makes each eventId count once per flow.
    await q.query(`
      CREATE TABLE "inbound_events" (
        "flow" varchar(16) NOT NULL,
        "event_id" varchar(200) NOT NULL,
        "order_id" integer NOT NULL,
        "outcome" varchar(32) NOT NULL,
        "payload" jsonb NOT NULL,
        "received_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("flow", "event_id"),
        CONSTRAINT "ck_inbound_events_flow" CHECK ("flow" IN ('payment', 'carrier')),
        CONSTRAINT "fk_inbound_events_order" FOREIGN KEY ("order_id") REFERENCES "orders"("id")
      )`);

    // Leases instead of long transactions: a worker that dies mid-job leaves a lease that runs out.
    await q.query(`ALTER TABLE "outbox" ADD "lock_token" uuid`);
    await q.query(`ALTER TABLE "outbox" ADD "locked_until" timestamptz`);
    await q.query(`ALTER TABLE "outbox" ADD "failed_at" timestamptz`);
    await q.query(`DROP INDEX "ix_outbox_pending"`);
    await q.query(
      `CREATE INDEX "ix_outbox_pending" ON "outbox" ("run_after") WHERE "done_at" IS NULL AND "failed_at" IS NULL`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_outbox_pending"`);
    await q.query(`CREATE INDEX "ix_outbox_pending" ON "outbox" ("run_after") WHERE "done_at" IS NULL`);
    await q.query(`ALTER TABLE "outbox" DROP COLUMN "failed_at"`);
    await q.query(`ALTER TABLE "outbox" DROP COLUMN "locked_until"`);
    await q.query(`ALTER TABLE "outbox" DROP COLUMN "lock_token"`);
    await q.query(`DROP TABLE "inbound_events"`);
    await q.query(`DROP INDEX "ix_orders_carrier_tracking"`);
    await q.query(`DROP INDEX "ix_orders_carrier_uuid"`);
    await q.query(`ALTER TABLE "orders" DROP COLUMN "carrier_registration_failed_at"`);
    await q.query(`ALTER TABLE "orders" DROP COLUMN "delivery_status_at"`);
    await q.query(`ALTER TABLE "orders" DROP COLUMN "paid_at"`);
  }
}
