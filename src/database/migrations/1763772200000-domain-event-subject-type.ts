import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A domain event's subject is kept to the known set by its type, a domain over the same
 * varchar, instead of a CHECK on the table: every statement that inserts into a table parses,
 * plans and compiles its CHECKs again, and each storefront order inserts events, while a domain's
 * check is kept planned by PostgreSQL (docs/performance.md, PERF-27). The column moves to the
 * domain before the domain has its check: a type change to a checked domain rewrites the table
 * and its indexes, one to a bare domain over the same type does not, and adding the check then
 * only reads the rows. The version before, which writes and compares the subject as text, works
 * on while instances roll over.
 */
export class DomainEventSubjectType1763772200000 implements MigrationInterface {
  name = 'DomainEventSubjectType1763772200000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE DOMAIN "domain_event_subject" AS character varying(16)`);
    await q.query(`ALTER TABLE "domain_events" ALTER COLUMN "subject" TYPE "domain_event_subject"`);
    await q.query(
      `ALTER DOMAIN "domain_event_subject" ADD CONSTRAINT "ck_domain_event_subject" CHECK (VALUE IN ('order', 'return', 'size', 'product'))`,
    );
    await q.query(`ALTER TABLE "domain_events" DROP CONSTRAINT "ck_domain_events_subject"`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "domain_events" ADD CONSTRAINT "ck_domain_events_subject" CHECK ("subject" IN ('order', 'return', 'size', 'product'))`,
    );
    await q.query(`ALTER TABLE "domain_events" ALTER COLUMN "subject" TYPE character varying(16)`);
    await q.query(`DROP DOMAIN "domain_event_subject"`);
  }
}
