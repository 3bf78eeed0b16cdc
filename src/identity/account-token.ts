import { randomBase64url } from '../common/runtime/random-text';
import { sha256Bytes } from '../common/runtime/sha256';

/** What each kind of account token starts with: it tells them apart, and logs redact the shape. */
export const ACCOUNT_TOKEN_PREFIX = {
  invitation: 'csh_inv_',
  passwordReset: 'csh_pwr_',
  loginChallenge: 'csh_lgc_',
} as const;
export type AccountTokenKind = keyof typeof ACCOUNT_TOKEN_PREFIX;

const RANDOM_BYTES = 32;
const SHAPE = /^csh_(inv|pwr|lgc)_[A-Za-z0-9_-]{43}$/;

export interface MintedToken {
  token: string;
  /** What is stored: the token's SHA-256. */
  hash: Buffer;
}

/**
 * An invitation's, a reset's or a sign-in challenge's token: 256 random bits behind its kind's prefix. Only its SHA-256
 * is stored, and it is found by that digest through a unique index, so no stored token is ever
 * compared character by character with what a caller sends.
 */
export function mintAccountToken(kind: AccountTokenKind): MintedToken {
  const token = `${ACCOUNT_TOKEN_PREFIX[kind]}${randomBase64url(RANDOM_BYTES)}`;
  return { token, hash: sha256Bytes(token) };
}

/** The digest to look a presented token up by, or null when it cannot be one of `kind`'s. */
export function accountTokenHash(kind: AccountTokenKind, presented: string): Buffer | null {
  if (!SHAPE.test(presented) || !presented.startsWith(ACCOUNT_TOKEN_PREFIX[kind])) return null;
  return sha256Bytes(presented);
}
