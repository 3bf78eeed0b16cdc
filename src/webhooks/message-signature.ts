import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (contract §10). */
export function newSigningSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/**
 * The Standard Webhooks signature of one attempt: `v1,` and the base64 HMAC-SHA256 of
 * `<id>.<timestamp>.<body>` under the secret's base64-decoded bytes. With several secrets (during
 * a rotation), one signature each, space-separated, in the order given.
 */
export function signMessage(secrets: string[], msgId: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
      return `v1,${createHmac('sha256', key).update(`${msgId}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}
