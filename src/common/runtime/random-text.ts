import { randomFillSync } from 'node:crypto';

/*
 * Random bytes drawn from OpenSSL's CSPRNG 4 KiB at a time rather than 16 at a time, as Node's
 * randomUUID batches its own: a `randomBytes(16)` call per order cost many times a slice of the
 * pool (docs/performance.md, PERF-12). Each byte is handed out once and wiped as it is, so the
 * pool never holds a token already given out. Cluster workers are processes of their own, each
 * with its own pool.
 */
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let offset = POOL_BYTES;

/** `bytes` random bytes as base64url text, as `randomBytes(bytes).toString('base64url')` gives. */
export function randomBase64url(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes <= 0 || bytes > POOL_BYTES) {
    throw new RangeError(`randomBase64url: ${bytes} bytes`);
  }
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const end = offset + bytes;
  const text = pool.toString('base64url', offset, end);
  pool.fill(0, offset, end);
  offset = end;
  return text;
}
