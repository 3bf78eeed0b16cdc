import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The events API's order (contract §16): each event's `position` is at least the id of the
 * transaction that wrote it (pg_current_xact_id, 64 bits with its epoch, so it never wraps) and
 * at least its subject's previous event's; readers page by (position, id) below the oldest
 * transaction still running. Events from before get this migration's own transaction id, which
 * is above every earlier writer's, so they keep their order by id. The column is a bigint that
 * holds the xid8's value: TypeORM has no xid8, and the entities must describe the schema.
 * Subjects `size` and `product` are allowed for the stock and product events to come.
 */
export class DomainEventPositions1763771500000 implements MigrationInterface {
  name = 'DomainEventPositions1763771500000';

  public async up(q: QueryRunner): Promise<void> {
    // Also the column's default, so a writer that names no position (an instance of the version
    // before, still running while this one starts) gets a safe one: its own transaction's.
    await q.query(
      `CREATE FUNCTION domain_event_position() RETURNS bigint LANGUAGE sql VOLATILE AS 'SELECT pg_current_xact_id()::text::bigint'`,
    );
    await q.query(`ALTER TABLE "domain_events" ADD "position" bigint NOT NULL DEFAULT domain_event_position()`);
    await q.query(`CREATE INDEX "ix_domain_events_brand_position" ON "domain_events" ("brand_id", "position", "id") `);
    await q.query(`ALTER TABLE "domain_events" DROP CONSTRAINT "ck_domain_events_subject"`);
    await q.query(
      `ALTER TABLE "domain_events" ADD CONSTRAINT "ck_domain_events_subject" CHECK ("subject" IN ('order', 'return', 'size', 'product'))`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "domain_events" DROP CONSTRAINT "ck_domain_events_subject"`);
    await q.query(
      `ALTER TABLE "domain_events" ADD CONSTRAINT "ck_domain_events_subject" CHECK ("subject" IN ('order', 'return'))`,
    );
    await q.query(`DROP INDEX "public"."ix_domain_events_brand_position"`);
    await q.query(`ALTER TABLE "domain_events" DROP COLUMN "position"`);
    await q.query(`DROP FUNCTION domain_event_position()`);
  }
}
