import { isoTimestampSql } from '../database/iso-timestamp.sql';

/**
 * The outbound webhooks' statement parts (contract §10), added to the statement that records an
 * event (WebhookFanOut), so the message and its deliveries commit with the change or not at all.
 * Arguments are SQL expressions or CTE names of the calling statement.
 */
export const WebhooksSql = {
  /** True when the brand has an enabled endpoint subscribed to the event type. */
  hasSubscriber: (brandId: string, type: string) =>
    `EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.brand_id = ${brandId} AND w.enabled
              AND (${type} = ANY (w.event_types) OR '*' = ANY (w.event_types)))`,

  /**
   * CTEs after `events` (a CTE of one row: brand_id, type, data, occurred_at): one message with
   * the body of §10 and one delivery per subscribed endpoint, when there is any.
   */
  fanOut: (events: string) =>
    `wh_targets AS (
       SELECT w.id AS endpoint_id FROM ${events} e
         JOIN webhook_endpoints w ON w.brand_id = e.brand_id AND w.enabled
                                 AND (e.type = ANY (w.event_types) OR '*' = ANY (w.event_types))
     ),
     wh_message AS (
       INSERT INTO webhook_messages (msg_id, brand_id, event_type, payload)
       SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.brand_id, e.type,
              jsonb_build_object('type', e.type,
                                 'timestamp', ${isoTimestampSql('e.occurred_at')},
                                 'data', e.data)
         FROM ${events} e WHERE EXISTS (SELECT 1 FROM wh_targets)
       RETURNING id
     ),
     wh_deliveries AS (
       INSERT INTO webhook_deliveries (message_id, endpoint_id) SELECT m.id, t.endpoint_id FROM wh_message m, wh_targets t
       RETURNING id
     )`,

  /** After fanOut: how many deliveries the statement wrote (the workers are woken once it commits: DeliveryWake). */
  deliveriesWritten: `(SELECT count(*) FROM wh_deliveries)::int`,
};
