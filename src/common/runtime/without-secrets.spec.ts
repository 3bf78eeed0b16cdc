import { randomBytes } from 'node:crypto';
import { withoutSecrets } from './without-secrets';

describe('withoutSecrets', () => {
  it('replaces integration keys, site keys, webhook secrets and session tokens', () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.c2lnbmF0dXJl';
    // Base64 may hold a slash: what follows the secret in a path goes with it, rather than a part of it staying.
    const text = `/a/csh_at_${'a'.repeat(64)}/b/${'F'.repeat(48)}/c/${encodeURIComponent(secret)}/d/${secret}?t=${jwt}`;
    expect(withoutSecrets(text)).toBe('/a/[redacted]/b/[redacted]/c/[redacted]?t=[redacted]');
    expect(withoutSecrets(`/e/${encodeURIComponent(secret)}`)).toBe('/e/[redacted]');
  });

  it("replaces an invitation's and a password reset's token in a path", () => {
    const token = randomBytes(32).toString('base64url');
    expect(withoutSecrets(`/auth/invitations/csh_inv_${token}/accept`)).toBe('/auth/invitations/[redacted]/accept');
    expect(withoutSecrets(`/auth/password-reset/csh_pwr_${token}`)).toBe('/auth/password-reset/[redacted]');
  });

  it('keeps ids, UUIDs and shorter hex as they are', () => {
    const text = '/orders/admin/12/3f2b9c1e-6d3a-4a57-9d9e-0c1f2a3b4c5d/abcdef0123';
    expect(withoutSecrets(text)).toBe(text);
  });

  it('cuts to the length when one is given', () => {
    expect(withoutSecrets('abcdef', 3)).toBe('abc');
  });
});
