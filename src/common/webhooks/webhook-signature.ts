import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, as the bank and the carrier send it. */
export function signPayload(secret: string, rawBody: Buffer | string, timestamp: number): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/**
 * True when the header carries a v1 signature of exactly these bytes, made with the secret, at a
 * time within 300 s of now. Several v1 entries are allowed (a sender rotating its secret).
 */
export function verifySignature(
  secret: string | undefined,
  header: string | undefined,
  rawBody: Buffer | undefined,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (!secret || !header) return false;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value, ...rest] = part.trim().split('=');
    if (rest.length > 0 || value === undefined) return false;
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0) return false;
  if (Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(
    createHmac('sha256', secret)
      .update(`${timestamp}.`)
      .update(rawBody ?? Buffer.alloc(0))
      .digest('hex'),
  );
  return signatures.some((candidate) => timingSafeEqual(Buffer.from(candidate), expected));
}
