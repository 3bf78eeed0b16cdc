import { randomFillSync } from 'node:crypto';
import { randomBase64url } from './random-text';

jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  return { ...actual, randomFillSync: jest.fn(actual.randomFillSync) };
});

describe('randomBase64url', () => {
  it('gives the text randomBytes(n).toString("base64url") would: n bytes, base64url', () => {
    for (const bytes of [1, 16, 32, 100]) {
      const text = randomBase64url(bytes);
      expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(text, 'base64url')).toHaveLength(bytes);
    }
  });

  it('never gives the same bytes twice, across refills of the pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) seen.add(randomBase64url(16));
    expect(seen.size).toBe(2000);
  });

  it('draws from the CSPRNG once per 4 KiB, not once per token', () => {
    const fill = jest.mocked(randomFillSync);
    fill.mockClear();
    for (let i = 0; i < 256 * 4; i++) randomBase64url(16);
    expect(fill.mock.calls.length).toBeGreaterThanOrEqual(4);
    expect(fill.mock.calls.length).toBeLessThanOrEqual(5);
  });

  it('refuses sizes the pool cannot give', () => {
    for (const bytes of [0, -1, 1.5, 4097, Number.NaN]) expect(() => randomBase64url(bytes)).toThrow(RangeError);
  });
});
