import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The journal reads newest first by `at`, then `id` (contract §8): entries of concurrent requests
 * get ids in an order other than their times. The indexes follow the order the lists read in.
 */
export class JournalByTime1763770300000 implements MigrationInterface {
  name = 'JournalByTime1763770300000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_security_journal_brand"`);
    await q.query(`DROP INDEX "ix_security_journal_target_brand"`);
    await q.query(`CREATE INDEX "ix_security_journal_brand" ON "security_journal" ("brand_id", "at", "id")`);
    await q.query(
      `CREATE INDEX "ix_security_journal_target_brand" ON "security_journal" ("target_brand_id", "at", "id")`,
    );
    await q.query(`CREATE INDEX "ix_security_journal_at" ON "security_journal" ("at", "id")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_security_journal_at"`);
    await q.query(`DROP INDEX "ix_security_journal_brand"`);
    await q.query(`DROP INDEX "ix_security_journal_target_brand"`);
    await q.query(`CREATE INDEX "ix_security_journal_brand" ON "security_journal" ("brand_id", "id")`);
    await q.query(`CREATE INDEX "ix_security_journal_target_brand" ON "security_journal" ("target_brand_id", "id")`);
  }
}
