import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PRUNE_BATCH } from '../common/runtime/batched-pruning';
import { isoTimestampSql } from '../database/iso-timestamp.sql';
import { tenantOrderSql, tenantRowsSql } from '../database/tenant-rows.sql';
import { changedRows } from '../database/returning';
import type { Tx } from '../database/transactions';
import { messageBody, testMessageData } from './webhooks.sql';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** A delivery a worker holds, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  attempts: number;
  endpoint_id: number;
  brand_id: number;
  url: string;
  secret_sealed: Buffer;
  previous_secret_sealed: Buffer | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  msg_id: string;
  payload: Record<string, unknown>;
}

export interface AttemptRecord {
  status: number | null;
  durationMs: number;
  error: string | null;
  body: string | null;
}

export interface DeliveryView {
  messageId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: Array<{ at: string; responseStatus: number | null; durationMs: number; error: string | null }>;
  nextAttemptAt: string | null;
  createdAt: string;
}

/**
 * WebhookDeliveriesRepository.pruneBatch's statement ($1 retention days): the PRUNE_BATCH oldest
 * by their time's index, those another pruning holds skipped.
 */
export const PRUNE_MESSAGES_BATCH = `WITH removed AS (
  DELETE FROM webhook_messages WHERE id IN (
    SELECT m.id FROM webhook_messages m
     WHERE m.created_at < now() - make_interval(days => $1)
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.message_id = m.id AND d.status = 'pending')
     ORDER BY m.created_at LIMIT ${PRUNE_BATCH} FOR UPDATE SKIP LOCKED)
  RETURNING 1)
SELECT count(*)::int AS removed FROM removed`;

/** The delivery worker's claim ($1 token, $2 limit, $3 per endpoint, $4 lease seconds, $5 ids answered but not yet recorded). */
export const CLAIM_DELIVERIES = `WITH busy AS MATERIALIZED (
         SELECT endpoint_id, count(*)::int AS n FROM webhook_deliveries
          WHERE lock_token IS NOT NULL AND locked_until > now() AND id <> ALL ($5::bigint[]) GROUP BY endpoint_id
       ), due AS (
         SELECT d.id, d.endpoint_id, d.next_attempt_at, COALESCE(b.n, 0) AS in_flight
           FROM webhook_deliveries d
           JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.enabled
           LEFT JOIN busy b ON b.endpoint_id = d.endpoint_id
          WHERE d.status = 'pending' AND d.next_attempt_at <= now()
            AND (d.locked_until IS NULL OR d.locked_until <= now()) AND COALESCE(b.n, 0) < $3
          ORDER BY d.next_attempt_at, d.id LIMIT $2 * 4
       ), picked AS (
         SELECT id FROM (
           SELECT id, next_attempt_at, in_flight,
                  row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS rank FROM due
         ) ranked
          WHERE rank + in_flight <= $3 ORDER BY next_attempt_at, id LIMIT $2
       ), claimed AS (
         UPDATE webhook_deliveries d SET lock_token = $1, locked_until = now() + make_interval(secs => $4)
           FROM (SELECT id FROM webhook_deliveries
                  WHERE id IN (SELECT id FROM picked) AND status = 'pending'
                    AND (locked_until IS NULL OR locked_until <= now())
                  FOR UPDATE SKIP LOCKED) AS free
          WHERE d.id = free.id
         RETURNING d.id, d.attempts, d.endpoint_id, d.message_id
       )
       SELECT c.id, c.attempts, c.endpoint_id, w.brand_id, w.url, w.secret_sealed, w.previous_secret_sealed,
              w.previous_secret_expires_at, w.failing_since, m.msg_id, m.payload
         FROM claimed c
         JOIN webhook_endpoints w ON w.id = c.endpoint_id
         JOIN webhook_messages m ON m.id = c.message_id
        ORDER BY c.id`;

/** The webhook_messages, webhook_deliveries and webhook_attempts tables. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Claims due deliveries of enabled endpoints for `leaseSeconds`, at most `perEndpoint` being
   * sent to any one endpoint (counting the claims other workers hold, but not `answered`: the
   * caller's claims whose receiver has answered and whose outcome is being written), so a slow
   * receiver holds only its own share: an endpoint at its share is left out before the oldest due
   * deliveries are taken, so its backlog never stands in front of another endpoint's. The
   * locking subquery repeats the "free" condition: a row another worker claimed meanwhile fails
   * it on PostgreSQL's re-check and is skipped. One round trip, with what sending needs. The
   * claims in flight are counted once (MATERIALIZED): inlined, the generic plan counted them again
   * for every due delivery, due × in flight rows a claim (0.7 ms for 30 due and 50 in flight).
   */
  claim(
    token: string,
    limit: number,
    perEndpoint: number,
    leaseSeconds: number,
    answered: string[] = [],
  ): Promise<ClaimedDelivery[]> {
    return this.db.query(CLAIM_DELIVERIES, [token, limit, perEndpoint, leaseSeconds, answered]);
  }

  /**
   * 2xx answers, a batch in one statement: each delivery succeeded, its attempt kept on the row
   * that update writes anyway (PERF-25); the ids still held (a delivery whose claim was lost is
   * left to the worker that took it).
   */
  async recordSuccesses(
    successes: Array<{ deliveryId: string; token: string; attempt: AttemptRecord }>,
  ): Promise<string[]> {
    const rows = await changedRows<{ id: string }>(
      this.db.manager,
      `UPDATE webhook_deliveries d
          SET status = 'succeeded', attempts = d.attempts + 1, lock_token = NULL, locked_until = NULL,
              next_attempt_at = NULL, succeeded_at = now(), success_status = b.response_status,
              success_duration_ms = b.duration_ms, success_body = b.response_body
         FROM unnest($1::bigint[], $2::uuid[], $3::int[], $4::int[], $5::text[])
              AS b(id, token, response_status, duration_ms, response_body)
        WHERE d.id = b.id AND d.lock_token = b.token
        RETURNING d.id`,
      [
        successes.map((s) => s.deliveryId),
        successes.map((s) => s.token),
        successes.map((s) => s.attempt.status),
        successes.map((s) => s.attempt.durationMs),
        successes.map((s) => s.attempt.body),
      ],
    );
    return rows.map((row) => String(row.id));
  }

  /**
   * Records an attempt and the delivery's next state, if the worker still holds it; false when
   * its claim ran out and another worker took the delivery (that one records its own attempt).
   */
  async recordAttempt(
    tx: Tx,
    deliveryId: string,
    token: string,
    attempt: AttemptRecord,
    next: { status: DeliveryStatus; retryInMs: number | null },
  ): Promise<boolean> {
    const updated = await changedRows<{ id: string }>(
      tx,
      `UPDATE webhook_deliveries
          SET status = $3, attempts = attempts + 1, lock_token = NULL, locked_until = NULL,
              next_attempt_at = CASE WHEN $4::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $4::float8 / 1000) END
        WHERE id = $1 AND lock_token = $2 RETURNING id`,
      [deliveryId, token, next.status, next.retryInMs],
    );
    if (updated.length === 0) return false;
    await tx.query(
      `INSERT INTO webhook_attempts (delivery_id, response_status, duration_ms, error, response_body)
       VALUES ($1, $2, $3, $4, $5)`,
      [deliveryId, attempt.status, attempt.durationMs, attempt.error?.slice(0, 500) ?? null, attempt.body],
    );
    return true;
  }

  /** A `webhook.test` message to one endpoint only; its `webhook-id`. */
  async insertTestMessage(tx: Tx, brandId: number, endpointId: number): Promise<string> {
    const rows: Array<{ msg_id: string }> = await tx.query(
      `WITH message AS (
         INSERT INTO webhook_messages (msg_id, brand_id, event_type, payload)
         VALUES ('msg_' || replace(gen_random_uuid()::text, '-', ''), $1, 'webhook.test',
                 ${messageBody({
                   type: `'webhook.test'`,
                   timestamp: isoTimestampSql('now()'),
                   data: testMessageData({ endpointId: '$2::int' }),
                 })})
         RETURNING id, msg_id
       ), delivery AS (
         INSERT INTO webhook_deliveries (message_id, endpoint_id) SELECT id, $2 FROM message
       )
       SELECT msg_id FROM message`,
      [brandId, endpointId],
    );
    return rows[0].msg_id;
  }

  /** Sends the endpoint's delivery of this message again now, with the same `webhook-id`; false when there is none. */
  async retryNow(endpointId: number, msgId: string): Promise<boolean> {
    // A success kept on the delivery becomes an attempt row first, so the next one does not overwrite it.
    const rows = await changedRows<{ id: string }>(
      this.db.manager,
      `WITH target AS (
         SELECT d.id, d.succeeded_at, d.success_status, d.success_duration_ms, d.success_body
           FROM webhook_deliveries d JOIN webhook_messages m ON m.id = d.message_id
          WHERE m.msg_id = $2 AND d.endpoint_id = $1
            FOR UPDATE OF d
       ), kept AS (
         INSERT INTO webhook_attempts (delivery_id, at, response_status, duration_ms, response_body)
         SELECT id, succeeded_at, success_status, success_duration_ms, success_body FROM target
          WHERE succeeded_at IS NOT NULL
       )
       UPDATE webhook_deliveries d
          SET status = 'pending', next_attempt_at = now(), succeeded_at = NULL, success_status = NULL,
              success_duration_ms = NULL, success_body = NULL
         FROM target t WHERE d.id = t.id
        RETURNING d.id`,
      [endpointId, msgId],
    );
    return rows.length > 0;
  }

  /** The endpoint's deliveries, newest first, each with its attempts. */
  async page(
    endpointId: number,
    filter: { status?: DeliveryStatus; before?: string; limit: number },
  ): Promise<DeliveryView[]> {
    return this.db.query(
      `SELECT m.msg_id AS "messageId", m.event_type AS "eventType", d.status,
              COALESCE((SELECT json_agg(json_build_object('at', a.at, 'responseStatus', a.response_status,
                                                          'durationMs', a.duration_ms, 'error', a.error) ORDER BY a.n NULLS LAST)
                          FROM (SELECT a.id AS n, a.at, a.response_status, a.duration_ms, a.error
                                  FROM webhook_attempts a WHERE a.delivery_id = d.id
                                UNION ALL
                                -- The success kept on the delivery settled it: the last attempt.
                                SELECT NULL, d.succeeded_at, d.success_status, d.success_duration_ms, NULL
                                 WHERE d.succeeded_at IS NOT NULL) a), '[]') AS attempts,
              CASE WHEN d.status = 'pending' THEN d.next_attempt_at END AS "nextAttemptAt", d.created_at AS "createdAt"
         FROM webhook_deliveries d JOIN webhook_messages m ON m.id = d.message_id
        WHERE ${tenantRowsSql('d.endpoint_id', '$1')} AND ($2::text IS NULL OR d.status = $2)
          AND ($3::text IS NULL OR d.id < (SELECT d2.id FROM webhook_deliveries d2 JOIN webhook_messages m2 ON m2.id = d2.message_id
                                            WHERE d2.endpoint_id = $1 AND m2.msg_id = $3))
        ORDER BY ${tenantOrderSql('d.endpoint_id')}, d.id DESC LIMIT $4`,
      [endpointId, filter.status ?? null, filter.before ?? null, filter.limit],
    );
  }

  /**
   * Pending and failed deliveries and the oldest pending one's age in seconds (0 when none), for
   * the metrics; each part through its partial index, never the settled deliveries.
   */
  async backlog(): Promise<{ pending: number; failed: number; oldestPendingAgeSeconds: number }> {
    const rows: Array<{ pending: number; failed: number; oldest: number }> = await this.db.query(
      `WITH pending AS (SELECT count(*)::int AS n, min(created_at) AS oldest FROM webhook_deliveries
                         WHERE status = 'pending')
       SELECT pending.n AS pending,
              (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'failed') AS failed,
              COALESCE(extract(epoch FROM now() - pending.oldest), 0)::float8 AS oldest
         FROM pending`,
    );
    return { pending: rows[0].pending, failed: rows[0].failed, oldestPendingAgeSeconds: rows[0].oldest };
  }

  /**
   * One batch of the pruning: at most PRUNE_BATCH of the oldest messages past the retention whose
   * deliveries are all settled, with their deliveries and attempts (ON DELETE CASCADE). The number removed.
   */
  async pruneBatch(retentionDays: number): Promise<number> {
    const rows: Array<{ removed: number }> = await this.db.query(PRUNE_MESSAGES_BATCH, [retentionDays]);
    return rows[0].removed;
  }
}
