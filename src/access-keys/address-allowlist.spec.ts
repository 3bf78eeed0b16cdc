import { canonicalEntry, isAllowed } from './address-allowlist';

describe('address allowlist', () => {
  it('accepts addresses and CIDR blocks of both families, and nothing else', () => {
    expect(canonicalEntry('203.0.113.7')).toBe('203.0.113.7');
    expect(canonicalEntry(' 10.0.0.0/8 ')).toBe('10.0.0.0/8');
    expect(canonicalEntry('2001:DB8::/32')).toBe('2001:db8::/32');
    expect(canonicalEntry('::1')).toBe('::1');
    for (const bad of [
      '',
      'localhost',
      '10.0.0.0/33',
      '10.0.0.0/',
      '10.0.0.0/8/1',
      '::/129',
      '1.2.3',
      '10.0.0.0/-1',
      '10.0.0.0/08x',
    ]) {
      expect({ bad, canonical: canonicalEntry(bad) }).toEqual({ bad, canonical: null });
    }
  });

  it('matches the peer against addresses and blocks, IPv4-mapped IPv6 peers included', () => {
    const list = ['127.0.0.1', '10.1.0.0/16', '2001:db8::/32'];
    expect(isAllowed(list, '127.0.0.1')).toBe(true);
    expect(isAllowed(list, '::ffff:127.0.0.1')).toBe(true);
    expect(isAllowed(list, '127.0.0.2')).toBe(false);
    expect(isAllowed(list, '10.1.200.3')).toBe(true);
    expect(isAllowed(list, '10.2.0.1')).toBe(false);
    expect(isAllowed(list, '2001:db8:1::5')).toBe(true);
    expect(isAllowed(list, '2001:db9::5')).toBe(false);
    expect(isAllowed(list, '')).toBe(false);
  });
});
