import { createHash } from 'node:crypto';
import { fingerprintOf, generateIntegrationKey, hintOf, isWellFormedIntegrationKey } from './integration-key-format';

describe('integration key format', () => {
  it('is csh_at_ followed by 64 lowercase hex digits, 71 characters in all', () => {
    const key = generateIntegrationKey();
    expect(key).toMatch(/^csh_at_[0-9a-f]{64}$/);
    expect(key).toHaveLength(71);
  });

  it('is random: no two keys alike', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateIntegrationKey));
    expect(keys.size).toBe(1000);
  });

  it('carries a CRC32 of its first 56 hex digits as the last 8', () => {
    const key = generateIntegrationKey();
    expect(isWellFormedIntegrationKey(key)).toBe(true);
  });

  it('refuses a mistyped, truncated, extended, re-cased or re-prefixed key', () => {
    const key = generateIntegrationKey();
    const flipped = key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);
    expect(isWellFormedIntegrationKey(flipped)).toBe(false);
    expect(isWellFormedIntegrationKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedIntegrationKey(`${key}0`)).toBe(false);
    expect(isWellFormedIntegrationKey(key.toUpperCase())).toBe(false);
    expect(isWellFormedIntegrationKey(key.replace('csh_at_', 'csh_xx_'))).toBe(false);
    expect(isWellFormedIntegrationKey(`csh_at_${'0'.repeat(64)}`)).toBe(false);
  });

  it('fingerprints with SHA-256 and hints with the last four digits only', () => {
    const key = generateIntegrationKey();
    expect(fingerprintOf(key)).toHaveLength(32);
    expect(fingerprintOf(key).equals(createHash('sha256').update(key).digest())).toBe(true);
    expect(hintOf(key)).toBe(`csh_at_...${key.slice(-4)}`);
  });
});
