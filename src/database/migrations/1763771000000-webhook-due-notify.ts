import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A new webhook delivery notifies `webhook_due` when its transaction commits, so a worker
 * listening starts on it at once instead of at its next poll (WEBHOOK_POLL_MS). Per row, so an
 * order no endpoint listens for pays nothing; PostgreSQL folds a transaction's identical
 * notifications into one.
 */
export class WebhookDueNotify1763771000000 implements MigrationInterface {
  name = 'WebhookDueNotify1763771000000';

  public async up(q: QueryRunner): Promise<void> {
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

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER webhook_deliveries_notify_due ON webhook_deliveries`);
    await q.query(`DROP FUNCTION notify_webhook_due()`);
  }
}
