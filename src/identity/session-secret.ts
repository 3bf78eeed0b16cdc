import { Logger } from '@nestjs/common';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { keptSecret } from '../common/runtime/kept-secret';

/**
 * SESSION_SECRET when set; otherwise a random secret kept in the data folder so sessions survive
 * restarts in development.
 */
export async function loadSessionSecret(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured) return configured;
  const file = path.resolve(dataDir, 'session-secret');
  const { value, created } = await keptSecret(file, () => randomBytes(48).toString('base64url'));
  new Logger('SessionSecret').warn(
    `SESSION_SECRET is not set: ${created ? 'generated one in' : 'using the one kept in'} ${file} (development only)`,
  );
  return value;
}

/**
 * The session secret, once loaded: it signs the session tokens (JwtService) and derives each
 * session's CSRF token, so the token need not be stored and any tab can be given it again.
 */
export class SessionSecret {
  constructor(readonly value: string) {}

  /** HMAC-SHA256 of the session id under the secret, base64url (contract §1). */
  csrfTokenOf(sessionId: string): string {
    return createHmac('sha256', this.value).update(`csrf:${sessionId}`).digest('base64url');
  }

  csrfMatches(sessionId: string, presented: string | undefined): boolean {
    if (!presented) return false;
    const expected = Buffer.from(this.csrfTokenOf(sessionId));
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
