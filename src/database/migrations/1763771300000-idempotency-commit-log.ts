import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a keyed request committed is recorded in each of its own transactions (`effects`), under
 * the claim that ran it (`claim_id`): a request cut short by a crash after its change committed is
 * resumed from that record when a retry takes the claim over, and never runs the change twice.
 */
export class IdempotencyCommitLog1763771300000 implements MigrationInterface {
  name = 'IdempotencyCommitLog1763771300000';

  public async up(q: QueryRunner): Promise<void> {
    // Rows from before get a claim id of their own; every claim names its id from now on.
    await q.query(`ALTER TABLE "idempotency_keys" ADD "claim_id" uuid NOT NULL DEFAULT gen_random_uuid()`);
    await q.query(`ALTER TABLE "idempotency_keys" ALTER COLUMN "claim_id" DROP DEFAULT`);
    await q.query(`ALTER TABLE "idempotency_keys" ADD "effects" bytea[] NOT NULL DEFAULT '{}'`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "effects"`);
    await q.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "claim_id"`);
  }
}
