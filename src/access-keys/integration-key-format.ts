import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { sha256Bytes } from '../common/runtime/sha256';

export const INTEGRATION_KEY_PREFIX = 'csh_at_';
const SHAPE = /^csh_at_[0-9a-f]{64}$/;

const checksum = (body: string) => crc32(body).toString(16).padStart(8, '0');

/**
 * `csh_at_` + 64 lowercase hex: 56 random (28 bytes from the CSPRNG) and a CRC32 of those 56 as
 * the last 8. The spec's format is kept; the checksum lets us refuse a mistyped or truncated key
 * without a database lookup, and lets secret scanners recognise a real key.
 */
export function generateIntegrationKey(): string {
  const body = randomBytes(28).toString('hex');
  return `${INTEGRATION_KEY_PREFIX}${body}${checksum(body)}`;
}

/** True when the key has the exact shape and a matching checksum. */
export function isWellFormedIntegrationKey(key: string): boolean {
  if (!SHAPE.test(key)) return false;
  const hex = key.slice(INTEGRATION_KEY_PREFIX.length);
  return checksum(hex.slice(0, 56)) === hex.slice(56);
}

/** What is stored instead of the key: its SHA-256. */
export function fingerprintOf(key: string): Buffer {
  return sha256Bytes(key);
}

/** Shown in lists so an administrator can tell keys apart; reveals 4 of the checksum's digits. */
export function hintOf(key: string): string {
  return `${INTEGRATION_KEY_PREFIX}...${key.slice(-4)}`;
}
