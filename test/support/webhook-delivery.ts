import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher';
import type { TestApp } from './test-app';
import { withClient } from './test-database';

/** Runs the app's delivery worker (started with WEBHOOK_WORKER=false) until no delivery is pending. */
export async function deliverAllPending(app: TestApp, databaseUrl: string, rounds = 40): Promise<void> {
  const dispatcher = app.app.get(WebhookDispatcher);
  for (let i = 0; i < rounds; i++) {
    await dispatcher.runOnce();
    await dispatcher.drain();
    const pending = await withClient(databaseUrl, (c) =>
      c.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`),
    );
    if (pending.rows[0].n === 0) return;
  }
  throw new Error('deliveries still pending');
}
