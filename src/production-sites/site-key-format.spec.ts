import { createHash } from 'node:crypto';
import { generateSiteKey, isWellFormedSiteKey, siteKeyFingerprint, siteKeyFingerprintHex } from './site-key-format';

describe('site key format', () => {
  it('generates 48 lowercase hex digits', () => {
    const key = generateSiteKey();
    expect(key).toMatch(/^[0-9a-f]{48}$/);
    expect(isWellFormedSiteKey(key)).toBe(true);
    expect(isWellFormedSiteKey(key.toUpperCase())).toBe(false);
    expect(isWellFormedSiteKey(`${key}0`)).toBe(false);
  });

  it('fingerprints a key by its SHA-256, as text for the cache and as bytes for the database', () => {
    const key = generateSiteKey();
    const sha256 = createHash('sha256').update(key).digest();
    expect(siteKeyFingerprintHex(key)).toBe(sha256.toString('hex'));
    expect(siteKeyFingerprint(key).equals(sha256)).toBe(true);
    expect(siteKeyFingerprintHex(generateSiteKey())).not.toBe(siteKeyFingerprintHex(key));
  });
});
