import { signPayload, verifySignature } from './webhook-signature';

const SECRET = 'whsec_0123456789abcdef';
const body = Buffer.from('{"eventId":"e1","status":"succeeded"}');
const now = 1_800_000_000;

describe('webhook signatures', () => {
  it('accepts its own signature of the exact bytes', () => {
    expect(verifySignature(SECRET, signPayload(SECRET, body, now), body, now)).toBe(true);
  });

  it('accepts up to 300 s of clock difference either way, and no more', () => {
    expect(verifySignature(SECRET, signPayload(SECRET, body, now - 300), body, now)).toBe(true);
    expect(verifySignature(SECRET, signPayload(SECRET, body, now + 300), body, now)).toBe(true);
    expect(verifySignature(SECRET, signPayload(SECRET, body, now - 301), body, now)).toBe(false);
    expect(verifySignature(SECRET, signPayload(SECRET, body, now + 301), body, now)).toBe(false);
  });

  it('refuses a wrong secret, an altered body, a missing secret or header', () => {
    expect(verifySignature('another-secret-xyz', signPayload(SECRET, body, now), body, now)).toBe(false);
    expect(
      verifySignature(SECRET, signPayload(SECRET, body, now), Buffer.from(body.toString().replace('e1', 'e2')), now),
    ).toBe(false);
    expect(verifySignature(SECRET, signPayload(SECRET, body, now), Buffer.from(`${body.toString()} `), now)).toBe(
      false,
    );
    expect(verifySignature(undefined, signPayload(SECRET, body, now), body, now)).toBe(false);
    expect(verifySignature(SECRET, undefined, body, now)).toBe(false);
  });

  it.each([
    ['garbage'],
    [`t=${now}`],
    ['v1=' + 'a'.repeat(64)],
    [`t=abc,v1=${'a'.repeat(64)}`],
    [`t=${now},v1=xyz`],
    [`t=${now},v1=${'a'.repeat(64)}=x`],
  ])('refuses the malformed header %p', (header) => {
    expect(verifySignature(SECRET, header, body, now)).toBe(false);
  });

  it('accepts any of several v1 signatures (secret rotation)', () => {
    const good = signPayload(SECRET, body, now).split(',')[1];
    expect(verifySignature(SECRET, `t=${now},v1=${'0'.repeat(64)},${good}`, body, now)).toBe(true);
  });
});
