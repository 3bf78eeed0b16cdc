import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The metrics read the outbox's and the webhook deliveries' backlogs at every scrape: pending rows
 * have their partial indexes already (the workers' claims), and these give the failed ones theirs,
 * so a scrape reads what waits or failed and never the settled rows, which grow with every order.
 */
export class BacklogIndexes1763771600000 implements MigrationInterface {
  name = 'BacklogIndexes1763771600000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "ix_outbox_failed" ON "outbox" ("failed_at") WHERE "failed_at" IS NOT NULL`);
    await q.query(
      `CREATE INDEX "ix_webhook_deliveries_failed" ON "webhook_deliveries" ("created_at") WHERE "status" = 'failed'`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."ix_webhook_deliveries_failed"`);
    await q.query(`DROP INDEX "public"."ix_outbox_failed"`);
  }
}
