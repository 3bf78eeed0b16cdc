import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';

/** Human-friendly and unique across instances: the next value of a database sequence. */
export async function nextOrderNumber(tx: EntityManager): Promise<string> {
  const rows: Array<{ n: string }> = await tx.query(`SELECT nextval('order_number_seq')::text AS n`);
  return rows[0].n;
}

/** Unguessable token for the buyer's tracking link (128 random bits). */
export function newOrderHash(): string {
  return randomBytes(16).toString('base64url');
}

/** Key order-independent JSON, hashed: equal requests give equal fingerprints. */
export function requestFingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
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
