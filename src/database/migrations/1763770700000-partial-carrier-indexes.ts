import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The carrier lookups (`carrier_order_uuid = $1`, `carrier_tracking_number = $1`) only ever look
 * for a value, and most storefront orders arrive without either: partial indexes give those
 * orders no entries, two index insertions less per order on the webhook's hot path
 * (docs/performance.md, PERF-22).
 */
export class PartialCarrierIndexes1763770700000 implements MigrationInterface {
  name = 'PartialCarrierIndexes1763770700000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_orders_carrier_uuid"`);
    await q.query(`DROP INDEX "ix_orders_carrier_tracking"`);
    await q.query(
      `CREATE INDEX "ix_orders_carrier_uuid" ON "orders" ("carrier_order_uuid") WHERE "carrier_order_uuid" IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX "ix_orders_carrier_tracking" ON "orders" ("carrier_tracking_number") WHERE "carrier_tracking_number" IS NOT NULL`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_orders_carrier_tracking"`);
    await q.query(`DROP INDEX "ix_orders_carrier_uuid"`);
    await q.query(`CREATE INDEX "ix_orders_carrier_tracking" ON "orders" ("carrier_tracking_number")`);
    await q.query(`CREATE INDEX "ix_orders_carrier_uuid" ON "orders" ("carrier_order_uuid")`);
  }
}
