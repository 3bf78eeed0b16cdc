import { createHash, randomBytes } from 'node:crypto';

const SHAPE = /^[0-9a-f]{48}$/;

/** 48 lowercase hex digits (24 bytes from the CSPRNG), no prefix: the spec's format. */
export function generateSiteKey(): string {
  return randomBytes(24).toString('hex');
}

export function isWellFormedSiteKey(key: string): boolean {
  return SHAPE.test(key);
}

export function siteKeyFingerprint(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}
