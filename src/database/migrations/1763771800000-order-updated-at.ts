import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An order's `updated_at`: the time of its last change of state (status, payment, delivery), set
 * by OrderLifecycle's statements and by the column default when the order is taken. Orders that
 * exist already get the latest of the times that record their state changes; the order list
 * filters a brand's orders by it (`updatedSince`, contract §16).
 */
export class OrderUpdatedAt1763771800000 implements MigrationInterface {
  name = 'OrderUpdatedAt1763771800000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "orders" ADD "updated_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(
      `UPDATE "orders" o SET "updated_at" = GREATEST(
         o.created_at, o.paid_at, o.stock_deducted_at, o.delivery_status_at, o.cancelled_at,
         (SELECT max(r.received_at) FROM "returns" r WHERE r.order_id = o.id))`,
    );
    await q.query(`ALTER TABLE "orders" ALTER COLUMN "updated_at" SET DEFAULT now()`);
    await q.query(`ALTER TABLE "orders" ALTER COLUMN "updated_at" SET NOT NULL`);
    await q.query(`CREATE INDEX "ix_orders_brand_updated" ON "orders" ("brand_id", "updated_at")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."ix_orders_brand_updated"`);
    await q.query(`ALTER TABLE "orders" DROP COLUMN "updated_at"`);
  }
}
