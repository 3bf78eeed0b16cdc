import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The key lifecycle (contract §1, §4, §12): integration keys get allowlists, last-use address,
 * rolls and expiry-reminder claims; site keys a hint and last use; sessions lose the stored CSRF
 * hash (the token is derived from the session instead).
 */
export class KeyLifecycle1763770600000 implements MigrationInterface {
  name = 'KeyLifecycle1763770600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "csrf_token_hash"`);
    await queryRunner.query(`ALTER TABLE "integration_keys" ADD "last_used_ip" character varying(64)`);
    await queryRunner.query(`ALTER TABLE "integration_keys" ADD "allowed_ips" text array`);
    await queryRunner.query(`ALTER TABLE "integration_keys" ADD "rolled_from_id" integer`);
    await queryRunner.query(`ALTER TABLE "integration_keys" ADD "rolled_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "integration_keys" ADD "reminded_7d_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "integration_keys" ADD "reminded_1d_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "site_keys" ADD "key_hint" character varying(4)`);
    await queryRunner.query(`ALTER TABLE "site_keys" ADD "last_used_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "ix_integration_keys_expiring" ON "integration_keys"  ("expires_at") WHERE "expires_at" IS NOT NULL AND "revoked_at" IS NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "integration_keys" ADD CONSTRAINT "fk_integration_keys_rolled_from" FOREIGN KEY ("rolled_from_id") REFERENCES "integration_keys"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "integration_keys" DROP CONSTRAINT "fk_integration_keys_rolled_from"`);
    await queryRunner.query(`DROP INDEX "public"."ix_integration_keys_expiring"`);
    await queryRunner.query(`ALTER TABLE "site_keys" DROP COLUMN "last_used_at"`);
    await queryRunner.query(`ALTER TABLE "site_keys" DROP COLUMN "key_hint"`);
    await queryRunner.query(`ALTER TABLE "integration_keys" DROP COLUMN "reminded_1d_at"`);
    await queryRunner.query(`ALTER TABLE "integration_keys" DROP COLUMN "reminded_7d_at"`);
    await queryRunner.query(`ALTER TABLE "integration_keys" DROP COLUMN "rolled_at"`);
    await queryRunner.query(`ALTER TABLE "integration_keys" DROP COLUMN "rolled_from_id"`);
    await queryRunner.query(`ALTER TABLE "integration_keys" DROP COLUMN "allowed_ips"`);
    await queryRunner.query(`ALTER TABLE "integration_keys" DROP COLUMN "last_used_ip"`);
    // Existing sessions keep working by bearer token; their cookie changes need a new sign-in
    // (the placeholder hash matches no CSRF token).
    await queryRunner.query(
      `ALTER TABLE "sessions" ADD "csrf_token_hash" character(64) NOT NULL DEFAULT repeat('0', 64)`,
    );
    await queryRunner.query(`ALTER TABLE "sessions" ALTER COLUMN "csrf_token_hash" DROP DEFAULT`);
  }
}
