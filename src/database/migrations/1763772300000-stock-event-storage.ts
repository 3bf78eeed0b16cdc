import { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS: Array<[name: string, type: string]> = [
  ['stock_product_id', 'integer'],
  ['stock_article', 'text'],
  ['stock_storefront_article', 'text'],
  ['stock_size', 'text'],
  ['stock_delta', 'integer'],
  ['stock_after', 'integer'],
  ['stock_reason', 'text'],
  ['stock_order_id', 'integer'],
  ['stock_return_id', 'integer'],
];

/**
 * A storefront order writes a `stock.changed` event a size; what it costs PostgreSQL is made
 * smaller (docs/performance.md, PERF-28):
 * - such an event keeps its data in columns of its row, and `data` is NULL for it: the events API
 *   and the webhook messages build the same object from them (stock-ledger/stock-event-columns.ts). Nullable
 *   columns without a default and a dropped NOT NULL change no row; events written before keep
 *   their `data`;
 * - the unique key of sequences leaves sizes out: a size's sequence is its row's counter
 *   (product_sizes.stock_events), raised under the row's lock by the statement that records the
 *   event, so the counter already keeps them unique, and no size's last event is looked up.
 *   The migration's transaction holds the table's ACCESS EXCLUSIVE lock (no reads, no writes)
 *   from its first ALTER to its commit, which the new key's build makes the longer part of (0.7 s
 *   for 2.6 million events, 500 MB, on a 2-core machine): short enough not to build it apart.
 * The build before writes its events whole, which this one reads; it reads this one's stock
 * events' data as null (GET /events), so instances are replaced together, and going back to it
 * takes this migration's down, which writes their data back (operations.md).
 */
export class StockEventStorage1763772300000 implements MigrationInterface {
  name = 'StockEventStorage1763772300000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "domain_events" ${COLUMNS.map(([n, t]) => `ADD "${n}" ${t}`).join(', ')}`);
    await q.query(`ALTER TABLE "domain_events" ALTER COLUMN "data" DROP NOT NULL`);
    await q.query(`ALTER TABLE "domain_events" DROP CONSTRAINT "uq_domain_events_sequence"`);
    await q.query(
      `CREATE UNIQUE INDEX "uq_domain_events_sequence" ON "domain_events" ("subject", "subject_id", "sequence") WHERE "subject" <> 'size'`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."uq_domain_events_sequence"`);
    await q.query(
      `ALTER TABLE "domain_events" ADD CONSTRAINT "uq_domain_events_sequence" UNIQUE ("subject", "subject_id", "sequence")`,
    );
    const data = `jsonb_build_object('sizeId', subject_id, 'productId', stock_product_id, 'article', stock_article,
       'storefrontArticle', stock_storefront_article, 'size', stock_size, 'delta', stock_delta, 'stock', stock_after,
       'reason', stock_reason, 'orderId', stock_order_id, 'returnId', stock_return_id, 'sequence', sequence)`;
    await q.query(`UPDATE "domain_events" SET "data" = ${data} WHERE "data" IS NULL`);
    await q.query(`ALTER TABLE "domain_events" ALTER COLUMN "data" SET NOT NULL`);
    await q.query(`ALTER TABLE "domain_events" ${COLUMNS.map(([n]) => `DROP COLUMN "${n}"`).join(', ')}`);
  }
}
