import { base32Bytes, totpCode } from './totp-code';

/** The test's own TOTP is right before the suites trust it: RFC 6238's appendix B vectors (SHA-1). */
describe("the tests' TOTP", () => {
  const seed = Buffer.from('12345678901234567890', 'ascii');

  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('at %i s gives %s', (seconds, code) => {
    expect(totpCode(seed, seconds * 1000, 8)).toBe(code);
  });

  it('reads base32 as RFC 4648 writes it', () => {
    expect(base32Bytes('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')).toEqual(seed);
  });
});
