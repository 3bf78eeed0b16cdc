import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A size's count of stock events and the position of its last (contract §16), kept on the size
 * and moved by the ledger's own update: the statement that locks a size and changes its stock
 * records its `stock.changed` event too, and only the updated row, not the statement's snapshot,
 * sees a transaction that committed while this one waited for the lock. Sizes have no stock
 * events before this migration, so both start at zero.
 */
export class SizeStockEvents1763771900000 implements MigrationInterface {
  name = 'SizeStockEvents1763771900000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "product_sizes" ADD "stock_events" integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE "product_sizes" ADD "stock_event_position" bigint NOT NULL DEFAULT 0`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "product_sizes" DROP COLUMN "stock_event_position"`);
    await q.query(`ALTER TABLE "product_sizes" DROP COLUMN "stock_events"`);
  }
}
