import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../common/runtime/sha256';

/** Unguessable token for the buyer's tracking link (128 random bits). */
export function newOrderHash(): string {
  return randomBytes(16).toString('base64url');
}

/** Key order-independent JSON, hashed: equal requests give equal fingerprints. */
export function requestFingerprint(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
