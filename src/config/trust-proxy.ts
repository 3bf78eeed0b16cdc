import { isIP } from 'node:net';

/**
 * Which proxies in front of the service are trusted to append the client's address to
 * `X-Forwarded-For`: a number of hops (0: none, the connection's peer is the client) or the
 * proxies' addresses and CIDR blocks. Express and Fastify both take either form (proxy-addr), and
 * both then take the rightmost entry no trusted proxy wrote: one a client sends ahead of the
 * chain is never read.
 */
export type TrustProxy = number | string[];

// proxy-addr's names for ranges; Express and Fastify both accept them.
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY as written: `false`/`true` (one hop, the proxy in front: proxy-addr's own `true`
 * would trust every hop, so a client could name its own address), a number of hops, or a
 * comma-separated list. Null for anything else.
 */
export function parseTrustProxy(value: unknown): TrustProxy | null {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const lower = text.toLowerCase();
  if (['', 'false', 'no'].includes(lower)) return 0;
  if (['true', 'yes'].includes(lower)) return 1;
  if (/^\d+$/.test(text)) return Number.isSafeInteger(Number(text)) ? Number(text) : null;
  const entries = text.split(',').map((entry) => entry.trim());
  return entries.every(isProxyEntry) ? entries : null;
}

function isProxyEntry(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}
