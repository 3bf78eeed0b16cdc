import { Webhook } from 'standardwebhooks';
import type { components } from './api-types';

/** A message the service sends to a webhook endpoint (contract §10): its type and the type's data. */
export type WebhookMessage = components['schemas']['WebhookMessageBody'];

/**
 * Checks a webhook message's Standard Webhooks signature with the endpoint's secret (`whsec_…`)
 * and its timestamp (five minutes either way), on the `standardwebhooks` library, and gives the
 * message; throws on a wrong or missing signature. `rawBody` must be the bytes as received.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: Record<string, string | string[] | undefined> | Headers,
  secret: string,
): WebhookMessage {
  const read = (name: string) => {
    const value = headers instanceof Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()]);
    return Array.isArray(value) ? value[0] : (value ?? '');
  };
  const payload = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  return new Webhook(secret).verify(payload, {
    'webhook-id': read('webhook-id'),
    'webhook-timestamp': read('webhook-timestamp'),
    'webhook-signature': read('webhook-signature'),
  }) as WebhookMessage;
}
