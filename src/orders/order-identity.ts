import { randomBase64url } from '../common/runtime/random-text';
import { sha256Hex } from '../common/runtime/sha256';

/** Unguessable token for the buyer's tracking link (128 random bits). */
export function newOrderHash(): string {
  return randomBase64url(16);
}

/** Key order-independent JSON, hashed: equal requests give equal fingerprints. */
export function requestFingerprint(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/**
 * Keys sorted by UTF-16 code units (Array#sort's order), undefined members left out, array gaps
 * written empty: the text fingerprints were first made with, so a repeat of an order stored
 * before still matches. Built by concatenation: the entry arrays, sort callbacks and joins it
 * was written with cost more, on every storefront order (docs/performance.md, PERF-12).
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let out = '';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + (i in value ? canonicalJson(value[i]) : '');
    return `[${out}]`;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    let out = '';
    for (const key of Object.keys(record).sort()) {
      const member = record[key];
      if (member === undefined) continue;
      out += (out === '' ? '' : ',') + JSON.stringify(key) + ':' + canonicalJson(member);
    }
    return `{${out}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
