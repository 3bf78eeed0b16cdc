import { isoTimestampSql } from '../database/iso-timestamp.sql';
import { jsonbObjectOf, type SqlFieldsOf } from '../database/json-object.sql';
import type { WebhookMessageBody, WebhookTestData } from './dto/webhook-message.body';

/** A message's body (contract §10) from SQL expressions of its parts. */
export const messageBody = (parts: SqlFieldsOf<WebhookMessageBody>) => jsonbObjectOf<WebhookMessageBody>(parts);

/** The data of `webhook.test`, from its class as the body is (messageBody). */
export const testMessageData = (parts: SqlFieldsOf<WebhookTestData>) => jsonbObjectOf<WebhookTestData>(parts);

/**
 * The outbound webhooks' statement parts (contract §10), added to the statement that records
 * events (WebhookFanOut), so the messages and their deliveries commit with the change or not at
 * all. Arguments are SQL expressions or CTE names of the calling statement.
 */
export const WebhooksSql = {
  /** True when the brand has an enabled endpoint subscribed to one of the event types (SQL text expressions). */
  hasSubscriber: (brandId: string, types: readonly string[]) =>
    `EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.brand_id = ${brandId} AND w.enabled
              AND (w.event_types && ARRAY[${types.join(', ')}]::text[] OR '*' = ANY (w.event_types)))`,

  /**
   * CTEs after `events` (a CTE of rows id, brand_id, type, data, occurred_at; a statement may
   * record several, e.g. an order and the stock of each of its sizes): one message with the body
   * of §10 for each event some enabled endpoint of its brand is subscribed to, and one delivery
   * per such endpoint. The message ids are drawn before the insert (a CTE used twice is computed
   * once), so each delivery finds its event's message.
   */
  fanOut: (events: string) =>
    `wh_targets AS (
       SELECT e.id AS event_id, w.id AS endpoint_id FROM ${events} e
         JOIN webhook_endpoints w ON w.brand_id = e.brand_id AND w.enabled
                                 AND (e.type = ANY (w.event_types) OR '*' = ANY (w.event_types))
     ),
     wh_pending AS (
       SELECT e.id AS event_id, 'msg_' || replace(gen_random_uuid()::text, '-', '') AS msg_id, e.brand_id, e.type,
              ${messageBody({ type: 'e.type', timestamp: isoTimestampSql('e.occurred_at'), data: 'e.data' })} AS payload
         FROM ${events} e WHERE e.id IN (SELECT event_id FROM wh_targets)
     ),
     wh_message AS (
       INSERT INTO webhook_messages (msg_id, brand_id, event_type, payload)
       SELECT p.msg_id, p.brand_id, p.type, p.payload FROM wh_pending p ORDER BY p.event_id
       RETURNING id, msg_id
     ),
     wh_deliveries AS (
       INSERT INTO webhook_deliveries (message_id, endpoint_id)
       SELECT m.id, t.endpoint_id FROM wh_message m JOIN wh_pending p ON p.msg_id = m.msg_id
                                  JOIN wh_targets t ON t.event_id = p.event_id
        ORDER BY m.id, t.endpoint_id
       RETURNING id
     )`,

  /** After fanOut: how many deliveries the statement wrote (the workers are woken once it commits: DeliveryWake). */
  deliveriesWritten: `(SELECT count(*) FROM wh_deliveries)::int`,
};
