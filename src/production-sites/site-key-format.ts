import { randomBytes } from 'node:crypto';
import { sha256Bytes, sha256Hex } from '../common/runtime/sha256';

const SHAPE = /^[0-9a-f]{48}$/;

/** 48 lowercase hex digits (24 bytes from the CSPRNG), no prefix: the spec's format. */
export function generateSiteKey(): string {
  return randomBytes(24).toString('hex');
}

export function isWellFormedSiteKey(key: string): boolean {
  return SHAPE.test(key);
}

export function siteKeyFingerprint(key: string): Buffer {
  return sha256Bytes(key);
}

/** The fingerprint as hex text: what the site-key cache is keyed by, so a cached key needs no bytes. */
export function siteKeyFingerprintHex(key: string): string {
  return sha256Hex(key);
}
