import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Repeated refusals are counted on one row instead of written one row each (issue 50, point 10):
 * a journal entry of a refusal repeated by one key in one minute (`repeat_of`, `repeat_minute`)
 * and a key's 429s past the few of a minute kept in full (`fold_minute`, `fold_slot`). The
 * partial unique indexes are what every instance's upsert merges on, so the bound and the
 * counts hold however many instances write; rows written before keep `count` 1 and no fold key.
 */
export class RepeatsCounted1763772600000 implements MigrationInterface {
  name = 'RepeatsCounted1763772600000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "security_journal" ADD "count" integer NOT NULL DEFAULT 1`);
    await q.query(`ALTER TABLE "security_journal" ADD "repeat_of" character varying(160)`);
    await q.query(`ALTER TABLE "security_journal" ADD "repeat_minute" TIMESTAMP WITH TIME ZONE`);
    await q.query(
      `CREATE UNIQUE INDEX "ux_security_journal_repeat" ON "security_journal" ("repeat_of", "repeat_minute") WHERE "repeat_of" IS NOT NULL`,
    );
    await q.query(`ALTER TABLE "request_failures" ADD "count" integer NOT NULL DEFAULT 1`);
    await q.query(`ALTER TABLE "request_failures" ADD "fold_minute" TIMESTAMP WITH TIME ZONE`);
    await q.query(`ALTER TABLE "request_failures" ADD "fold_slot" smallint`);
    await q.query(
      `CREATE UNIQUE INDEX "ux_request_failures_fold" ON "request_failures" ("key_id", "fold_minute", "fold_slot") WHERE "fold_minute" IS NOT NULL`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ux_request_failures_fold"`);
    await q.query(`ALTER TABLE "request_failures" DROP COLUMN "fold_slot"`);
    await q.query(`ALTER TABLE "request_failures" DROP COLUMN "fold_minute"`);
    await q.query(`ALTER TABLE "request_failures" DROP COLUMN "count"`);
    await q.query(`DROP INDEX "ux_security_journal_repeat"`);
    await q.query(`ALTER TABLE "security_journal" DROP COLUMN "repeat_minute"`);
    await q.query(`ALTER TABLE "security_journal" DROP COLUMN "repeat_of"`);
    await q.query(`ALTER TABLE "security_journal" DROP COLUMN "count"`);
  }
}
