import { promises as dns } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may never reach (SSRF): loopback, private, shared (CGNAT), link-local,
 * multicast, reserved, unspecified. Node's BlockList checks IPv4-mapped IPv6 addresses
 * (`::ffff:127.0.0.1`, `::ffff:7f00:1`) against the IPv4 rules; IPv4-compatible ones (`::7f00:1`)
 * are refused as a range.
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class ForbiddenAddressError extends Error {}

/**
 * The addresses to connect to for `hostname`, every one of them allowed; throws when the name
 * resolves to nothing or to any forbidden address (a name with one private address among public
 * ones is refused: the connection could be steered to it).
 */
export async function allowedAddresses(
  hostname: string,
  allowPrivate: boolean,
): Promise<Array<{ address: string; family: number }>> {
  const literal = hostname.replace(/^\[|\]$/g, '');
  const found = isIP(literal)
    ? [{ address: literal, family: isIP(literal) }]
    : await dns.lookup(hostname, { all: true, verbatim: true });
  if (found.length === 0) throw new ForbiddenAddressError(`${hostname} resolves to no address`);
  if (!allowPrivate) {
    const bad = found.find((entry) => isForbiddenAddress(entry.address));
    if (bad) throw new ForbiddenAddressError(`${hostname} resolves to ${bad.address}, which webhooks may not reach`);
  }
  return found;
}
