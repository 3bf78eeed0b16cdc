import { Logger } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import path from 'node:path';
import { keptSecret } from '../runtime/kept-secret';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals secrets the service must keep readable (webhook signing secrets, TOTP secrets) with AES-256-GCM: a
 * database dump holds `iv | tag | ciphertext`, never the secret, and a tampered value fails to open.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the secrets key must be 32 bytes');
  }

  seal(plain: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  open(sealed: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, IV_BYTES));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

/**
 * SECRETS_ENCRYPTION_KEY when set; otherwise a random key kept in the data folder (development
 * only, with a warning), as the session secret is.
 */
export async function loadSecretsKey(configured: string | undefined, dataDir: string): Promise<Buffer> {
  if (configured) return Buffer.from(configured, 'hex');
  const file = path.resolve(dataDir, 'secrets-key');
  const { value, created } = await keptSecret(file, () => randomBytes(32).toString('hex'));
  new Logger('SecretsKey').warn(
    `SECRETS_ENCRYPTION_KEY is not set: ${created ? 'generated one in' : 'using the one kept in'} ${file} (development only)`,
  );
  return Buffer.from(value, 'hex');
}
