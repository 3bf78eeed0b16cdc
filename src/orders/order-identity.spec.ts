import { createHash } from 'node:crypto';
import { newOrderHash, requestFingerprint } from './order-identity';

describe('order identity', () => {
  it("fingerprints a request by the SHA-256 of its canonical JSON, whatever its keys' order", () => {
    const body = { b: [1, { y: 'é', x: null }], a: 'x', skipped: undefined };
    const canonical = '{"a":"x","b":[1,{"x":null,"y":"é"}]}';
    expect(requestFingerprint(body)).toBe(createHash('sha256').update(canonical).digest('hex'));
    expect(requestFingerprint({ a: 'x', b: [1, { x: null, y: 'é' }] })).toBe(requestFingerprint(body));
    expect(requestFingerprint({ a: 'x', b: [{ x: null, y: 'é' }, 1] })).not.toBe(requestFingerprint(body));
  });

  it('writes the canonical text as fingerprints were first made: code-unit key order, gaps empty, undefined as null in arrays', () => {
    // eslint-disable-next-line no-sparse-arrays
    const body = { b: 1, a: [{ z: 'é', é: 1, A: 2 }, , undefined, null], c: undefined, '\u{1F600}': 1, ﬀ: 2, '': 0 };
    const canonical = '{"":0,"a":[{"A":2,"z":"é","é":1},,null,null],"b":1,"\u{1F600}":1,"ﬀ":2}';
    expect(requestFingerprint(body)).toBe(createHash('sha256').update(canonical).digest('hex'));
  });

  it('makes tracking tokens of 128 random bits', () => {
    const token = newOrderHash();
    expect(Buffer.from(token, 'base64url')).toHaveLength(16);
    expect(newOrderHash()).not.toBe(token);
  });
});
