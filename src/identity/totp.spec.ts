import { Secret } from 'otpauth';
import { otpauthUriOf, stepOfCode } from './totp';

// RFC 6238 appendix B's SHA-1 seed, and its codes cut to the 6 digits contract §19 fixes.
const SECRET = new Secret({ buffer: new Uint8Array(Buffer.from('12345678901234567890', 'ascii')).buffer }).base32;

describe('TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps)', () => {
  it("accepts the RFC's codes at their time, naming their step", () => {
    expect(stepOfCode(SECRET, '287082', 59_000)).toBe(1);
    expect(stepOfCode(SECRET, '081804', 1_111_111_109_000)).toBe(37_037_036);
    expect(stepOfCode(SECRET, '005924', 1_234_567_890_000)).toBe(41_152_263);
  });

  it('accepts one step either side, not two', () => {
    const at = 1_234_567_890_000;
    expect(stepOfCode(SECRET, '005924', at + 30_000)).toBe(41_152_263);
    expect(stepOfCode(SECRET, '005924', at - 30_000)).toBe(41_152_263);
    expect(stepOfCode(SECRET, '005924', at + 60_000)).toBeNull();
  });

  it('refuses what is not six digits', () => {
    for (const code of ['', '28708', '2870822', '28708a', ' 287082'])
      expect(stepOfCode(SECRET, code, 59_000)).toBeNull();
  });

  it('writes the otpauth URI an app reads', () => {
    const uri = new URL(otpauthUriOf(SECRET, 'admin.shop.example', 'a@b.example'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(SECRET);
    expect(uri.searchParams.get('issuer')).toBe('admin.shop.example');
    expect(uri.searchParams.get('algorithm')).toBe('SHA1');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
  });
});
