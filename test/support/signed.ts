import request from 'supertest';
import { signPayload } from '../../src/common/webhooks/webhook-signature';
import type { TestApp } from './test-app';

export const PAYMENT_SECRET = 'payment-secret-0123456789';
export const CARRIER_SECRET = 'carrier-secret-0123456789';

/** Posts a JSON body signed as the bank or the carrier signs it. */
export function postSigned(
  http: TestApp['http'],
  path: string,
  secret: string,
  body: unknown,
  options: { timestamp?: number; tamper?: (raw: string) => string } = {},
) {
  const raw = JSON.stringify(body);
  const signature = signPayload(secret, raw, options.timestamp ?? Math.floor(Date.now() / 1000));
  return request(http)
    .post(path)
    .set('Content-Type', 'application/json')
    .set('X-Signature', signature)
    .send(options.tamper ? options.tamper(raw) : raw);
}
