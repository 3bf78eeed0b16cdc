import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a store of a million orders needs of its indexes (contract §21): the brand's orders by
 * status for the list's `status` filter and its total, its returns likewise, and the buyer's
 * orders by phone (E.164 and as sent) and by e-mail for erasure and export (§17); the events by
 * age for their pruning, and the numbers of the subjects whose events were all pruned.
 *
 * Outside a transaction, each index is built CONCURRENTLY: writes to orders go on while it is
 * built (docs/operations.md says how long each takes at a million orders). Run again after a
 * cut-off start, it keeps what was finished: a valid index stays, an invalid one (a build cut off)
 * is dropped and built again, and the table is made only if missing.
 */
export class DataThatGrows1763772900000 implements MigrationInterface {
  name = 'DataThatGrows1763772900000';
  transaction = false;

  public async up(q: QueryRunner): Promise<void> {
    for (const [name, definition] of INDEXES) {
      const found = (await q.query(
        `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
        [name],
      )) as Array<{ valid: boolean }>;
      if (found[0]?.valid) continue;
      if (found.length) await q.query(`DROP INDEX CONCURRENTLY "${name}"`);
      await q.query(`CREATE INDEX CONCURRENTLY "${name}" ON ${definition}`);
    }
    await q.query(
      `CREATE TABLE IF NOT EXISTS "domain_event_floors" (
         "subject" character varying(16) NOT NULL, "subject_id" integer NOT NULL,
         "sequence" integer NOT NULL, "position" bigint NOT NULL,
         CONSTRAINT "pk_domain_event_floors" PRIMARY KEY ("subject", "subject_id"))`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "domain_event_floors"`);
    // TypeORM reverts in a transaction whatever the migration says: a plain DROP, which is quick.
    for (const [name] of [...INDEXES].reverse()) await q.query(`DROP INDEX IF EXISTS "${name}"`);
  }
}

const INDEXES: ReadonlyArray<readonly [string, string]> = [
  ['ix_orders_brand_status', `"orders" ("brand_id", "status", "id")`],
  [
    'ix_orders_brand_phone',
    `"orders" ("brand_id", "recipient_phone_normalized") WHERE "recipient_phone_normalized" IS NOT NULL`,
  ],
  ['ix_orders_brand_phone_as_sent', `"orders" ("brand_id", btrim("recipient_phone"))`],
  ['ix_orders_brand_email', `"orders" ("brand_id", "recipient_email") WHERE "recipient_email" IS NOT NULL`],
  ['ix_returns_brand_status', `"returns" ("brand_id", "status", "id")`],
  ['ix_domain_events_occurred', `"domain_events" ("occurred_at")`],
];
