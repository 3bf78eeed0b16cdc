import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `webhook_due` notification leaves the writing transaction: a NOTIFY there makes PostgreSQL
 * serialise the commits of every transaction that notified, and the storefront webhook lost about
 * an eighth of its orders to it while an endpoint listened. The writer now wakes its own worker
 * after the commit and notifies the other instances only when that one cannot take the work
 * (DeliveryWake).
 */
export class WebhookDueWakeByWriter1763771100000 implements MigrationInterface {
  name = 'WebhookDueWakeByWriter1763771100000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER webhook_deliveries_notify_due ON webhook_deliveries`);
    await q.query(`DROP FUNCTION notify_webhook_due()`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION notify_webhook_due() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('webhook_due', '');
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER webhook_deliveries_notify_due AFTER INSERT ON webhook_deliveries
        FOR EACH ROW EXECUTE FUNCTION notify_webhook_due()`);
  }
}
