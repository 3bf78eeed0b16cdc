/** A request of a key answered 400 or above, as it waits for the next flush. */
export interface FailedRequest {
  keyId: number;
  at: Date;
  method: string;
  route: string | null;
  path: string;
  status: number;
  error: string | null;
  requestId: string;
  idempotencyKey: string | null;
  durationMs: number;
  ip: string;
}

// What a caller could put in a path, a header or a text that comes back in an error: an
// integration key, a site key (48 hex), a session token (a JWT). None of them is kept.
const SECRETS = /csh_at_[0-9A-Za-z]*|\b[0-9a-fA-F]{48,}\b|\beyJ[\w-]*\.[\w-]*\.[\w-]*/g;

/** The text with anything shaped like a key or a token replaced, cut to `max` characters. */
export function withoutSecrets(text: string, max: number): string {
  const clean = text.replace(SECRETS, '[redacted]');
  return clean.length > max ? clean.slice(0, max) : clean;
}
