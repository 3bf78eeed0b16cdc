import { promises as dns } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may never reach (SSRF): loopback, private, shared (CGNAT), link-local,
 * multicast, reserved, unspecified, and the other ranges of IANA's special-purpose registries that
 * are not globally reachable (documentation, benchmarking, the 6to4 relay anycast).
 */
const FORBIDDEN_V4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4], // with 255.255.255.255
] as const) {
  FORBIDDEN_V4.addSubnet(network, prefix, 'ipv4');
}
// Only 2000::/3 is allocated as global unicast, so everything outside it is refused: ::/128, ::1,
// the deprecated IPv4-compatible ::/96, 100::/64 discard, 5f00::/16 SRv6, fc00::/7, fe80::/10,
// fec0::/10, ff00::/8, and the local-use NAT64 64:ff9b:1::/48 (not global, and where its IPv4 sits
// is each network's choice, so it cannot be decoded). The forms that embed an IPv4 address through
// which they are dialled (`embeddedIpv4`) are judged by that address instead. A list of its own: a
// BlockList matches IPv4 addresses against IPv6 rules as ::ffff:a.b.c.d, which `::/3` would cover.
const FORBIDDEN_V6 = new BlockList();
for (const [network, prefix] of [
  ['::', 3],
  ['4000::', 2],
  ['8000::', 1],
  // IETF protocol assignments as a whole, Teredo (2001::/32) included: its relays are all but
  // gone, and a /23 of benchmarking, ORCHID and anycast service addresses holds no webhook receiver.
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
] as const) {
  FORBIDDEN_V6.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of a valid IPv6 address (zone dropped, dotted tail folded in). */
function groups(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parts = (part: string | undefined) => (part ? part.split(':') : []);
  const zeros = tail === undefined ? [] : new Array<string>(8 - parts(head).length - parts(tail).length).fill('0');
  return [...parts(head), ...zeros, ...parts(tail)].map((group) => parseInt(group, 16));
}

/** The IPv4 address an IPv6 one stands for, where the form says it is dialled through it. */
function embeddedIpv4(address: string): string | null {
  const g = groups(address);
  const quad = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zero = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zero(0, 5) && g[5] === 0xffff) return quad(g[6], g[7]); // IPv4-mapped ::ffff:0:0/96
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return quad(g[6], g[7]); // NAT64 64:ff9b::/96
  if (g[0] === 0x2002) return quad(g[1], g[2]); // 6to4 2002::/16
  return null;
}

export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return FORBIDDEN_V4.check(address, 'ipv4');
  const ipv4 = embeddedIpv4(address);
  return ipv4 === null ? FORBIDDEN_V6.check(address, 'ipv6') : FORBIDDEN_V4.check(ipv4, 'ipv4');
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
