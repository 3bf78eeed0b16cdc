import { createHash } from 'node:crypto';
import { sha256Bytes, sha256Hex } from './sha256';

describe('sha256', () => {
  it.each(['', 'csh_at_0123', 'é – 𝄞'])('digests %j as SHA-256 of its UTF-8, as text and as bytes', (text) => {
    const expected = createHash('sha256').update(text, 'utf8').digest();
    expect(sha256Hex(text)).toBe(expected.toString('hex'));
    expect(sha256Bytes(text).equals(expected)).toBe(true);
  });
});
