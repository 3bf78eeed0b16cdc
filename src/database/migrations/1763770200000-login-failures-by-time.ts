import { MigrationInterface, QueryRunner } from 'typeorm';

/** Lets the login throttle sweep expired failures of every e-mail without reading the whole table. */
export class LoginFailuresByTime1763770200000 implements MigrationInterface {
  name = 'LoginFailuresByTime1763770200000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "ix_login_failures_at" ON "login_failures" ("attempted_at")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_login_failures_at"`);
  }
}
