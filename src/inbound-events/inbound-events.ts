import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export type InboundFlow = 'payment' | 'carrier';

/** The record of processed bank and carrier events: each eventId counts once per flow. */
@Injectable()
export class InboundEvents {
  /**
   * Records the event in the caller's transaction. False when it was recorded before: a
   * concurrent twin waits on the primary key and then sees the first one's row.
   */
  async record(
    tx: EntityManager,
    event: { flow: InboundFlow; eventId: string; orderId: number; outcome: string; payload: object },
  ): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `INSERT INTO inbound_events (flow, event_id, order_id, outcome, payload) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (flow, event_id) DO NOTHING RETURNING event_id`,
      [event.flow, event.eventId, event.orderId, event.outcome, JSON.stringify(event.payload)],
    );
    return rows.length > 0;
  }
}
