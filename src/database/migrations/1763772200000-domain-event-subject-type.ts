import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A domain event's subject is an enum instead of text under a CHECK: the set of subjects is still
 * kept by the database, but a CHECK is read, planned and compiled again by every statement that
 * inserts, and each storefront order inserts events (docs/performance.md, PERF-27). The column's
 * type change rewrites the table and its unique key under an exclusive lock: on a large table,
 * run it in a quiet hour.
 */
export class DomainEventSubjectType1763772200000 implements MigrationInterface {
  name = 'DomainEventSubjectType1763772200000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TYPE "public"."domain_events_subject_enum" AS ENUM('order', 'return', 'size', 'product')`);
    await q.query(`ALTER TABLE "domain_events" DROP CONSTRAINT "ck_domain_events_subject"`);
    await q.query(
      `ALTER TABLE "domain_events" ALTER COLUMN "subject" TYPE "public"."domain_events_subject_enum" USING "subject"::text::"public"."domain_events_subject_enum"`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "domain_events" ALTER COLUMN "subject" TYPE character varying(16) USING "subject"::text`,
    );
    await q.query(`DROP TYPE "public"."domain_events_subject_enum"`);
    await q.query(
      `ALTER TABLE "domain_events" ADD CONSTRAINT "ck_domain_events_subject" CHECK ("subject" IN ('order', 'return', 'size', 'product'))`,
    );
  }
}
