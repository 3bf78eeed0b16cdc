import { BlockList, isIP } from 'node:net';

export const MAX_ALLOWED_IPS = 20;

/**
 * One allowlist entry in its canonical form (`10.0.0.0/8`, `2001:db8::/32`, `203.0.113.7`), or
 * null when it is neither an address nor a CIDR block.
 */
export function canonicalEntry(entry: string): string | null {
  const [address, prefix, extra] = entry.trim().split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return null;
  const list = new BlockList();
  if (prefix === undefined) {
    list.addAddress(address, family === 4 ? 'ipv4' : 'ipv6');
    return address.toLowerCase();
  }
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128)) return null;
  list.addSubnet(address, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
  return `${address.toLowerCase()}/${Number(prefix)}`;
}

const lists = new Map<string, BlockList>();

/**
 * Whether `address` (the request's peer) is in the allowlist. Node's BlockList does the
 * matching, IPv4-mapped IPv6 peers (`::ffff:127.0.0.1`) included. Lists are built once per
 * distinct allowlist and kept (a handful per deployment).
 */
export function isAllowed(allowlist: readonly string[], address: string): boolean {
  const key = allowlist.join(',');
  let list = lists.get(key);
  if (!list) {
    list = new BlockList();
    for (const entry of allowlist) {
      const [net, prefix] = entry.split('/');
      const family = isIP(net) === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) list.addAddress(net, family);
      else list.addSubnet(net, Number(prefix), family);
    }
    if (lists.size > 10_000) lists.clear();
    lists.set(key, list);
  }
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
