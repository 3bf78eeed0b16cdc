import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, and the sealed bytes do not contain the secret', () => {
    const secret = 'whsec_' + randomBytes(32).toString('base64');
    const sealed = box.seal(secret);
    expect(sealed.toString('latin1')).not.toContain(secret.slice(6, 20));
    expect(box.open(sealed)).toBe(secret);
    expect(box.seal(secret).equals(sealed)).toBe(false);
  });

  it('refuses a tampered value and another key', () => {
    const sealed = box.seal('whsec_abc');
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] ^= 1;
    expect(() => box.open(tampered)).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
  });
});
