import { parseTrustProxy } from './trust-proxy';

describe('parseTrustProxy', () => {
  it.each([
    [undefined, 0],
    ['', 0],
    ['false', 0],
    ['no', 0],
    ['0', 0],
    // Not proxy-addr's `true` (every hop trusted, the leftmost entry taken): the one proxy in front.
    ['true', 1],
    ['TRUE', 1],
    ['yes', 1],
    ['1', 1],
    [' 2 ', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['127.0.0.1/8, 203.0.113.0/24', ['127.0.0.1/8', '203.0.113.0/24']],
    ['::1,fd00::/8,loopback', ['::1', 'fd00::/8', 'loopback']],
  ])('%p → %p', (raw, trust) => {
    expect(parseTrustProxy(raw)).toEqual(trust);
  });

  it.each([
    'maybe',
    '-1',
    '1.5',
    '10.0.0.0/33',
    '::/129',
    '10.0.0.1/8/8',
    'localhost',
    '10.0.0.1,',
    '99999999999999999999',
  ])('%p is refused', (raw) => {
    expect(parseTrustProxy(raw)).toBeNull();
  });
});
