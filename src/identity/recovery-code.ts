import { randomBytes } from 'node:crypto';
import { Secret } from 'otpauth';
import { sha256Bytes } from '../common/runtime/sha256';

export const RECOVERY_CODE_COUNT = 10;
const SHAPE = /^[a-z2-7]{16}$/;

/**
 * Ten codes of 80 random bits each, written as four groups of base32 (`abcd-efgh-ijkl-mnop`):
 * long enough that their SHA-256 fingerprints, all that is kept, cannot be searched back.
 */
export function mintRecoveryCodes(): Array<{ code: string; hash: Buffer }> {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    // A copy: a small Buffer from randomBytes is a view of Node's shared pool.
    const plain = new Secret({ buffer: new Uint8Array(randomBytes(10)).buffer }).base32.toLowerCase();
    return { code: plain.match(/.{4}/g)!.join('-'), hash: sha256Bytes(plain) };
  });
}

/** The fingerprint of a code as typed (any case, with or without its hyphens and spaces), or null. */
export function recoveryCodeHash(typed: string): Buffer | null {
  const plain = typed.toLowerCase().replace(/[\s-]/g, '');
  return SHAPE.test(plain) ? sha256Bytes(plain) : null;
}
