import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export type OutboxKind =
  | 'mail.order_accepted'
  | 'mail.payment_received'
  | 'mail.delivery_status'
  | 'mail.staff_paid_order'
  | 'mail.staff_shipment_failed'
  | 'mail.staff_webhook_disabled'
  | 'mail.staff_key_expiring'
  | 'mail.password_reset'
  | 'carrier.register_shipment'
  | 'mail.invitation';

export interface OutboxEntry {
  kind: OutboxKind;
  payload: Record<string, unknown>;
  /** One job per key: recording the same event twice leaves one job. */
  dedupeKey: string;
}

/** Jobs from a SELECT of (kind, payload, dedupe_key), for a statement that records them with its change. */
export const enqueueSql = (select: string) =>
  `INSERT INTO outbox (kind, payload, dedupe_key) ${select} ON CONFLICT (dedupe_key) DO NOTHING`;

/**
 * Records work to do after the commit, in the caller's transaction: it exists exactly when the
 * change that caused it does. The worker that runs the jobs comes with the mail and carrier flows.
 */
@Injectable()
export class Outbox {
  async enqueue(tx: EntityManager, entries: OutboxEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await tx.query(enqueueSql('SELECT * FROM unnest($1::text[], $2::jsonb[], $3::text[])'), [
      entries.map((e) => e.kind),
      entries.map((e) => JSON.stringify(e.payload)),
      entries.map((e) => e.dedupeKey),
    ]);
  }
}
