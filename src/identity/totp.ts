import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as contract §19 fixes it: SHA-1, 6 digits, 30-second steps, one step either side. */
const PARAMETERS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
const CODE = /^\d{6}$/;

/** A new authenticator secret: 160 random bits (RFC 4226's recommended length), in base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export function otpauthUriOf(secret: string, issuer: string, account: string): string {
  return new TOTP({ ...PARAMETERS, issuer, label: account, secret: Secret.fromBase32(secret) }).toString();
}

/**
 * The time step `code` is right for (the current one or one either side), or null. The caller
 * accepts it only for a step later than the last it accepted, so each code works once.
 */
export function stepOfCode(secret: string, code: string, now = Date.now()): number | null {
  if (!CODE.test(code)) return null;
  const delta = TOTP.validate({
    ...PARAMETERS,
    token: code,
    secret: Secret.fromBase32(secret),
    timestamp: now,
    window: 1,
  });
  return delta === null ? null : TOTP.counter({ period: PARAMETERS.period, timestamp: now }) + delta;
}
