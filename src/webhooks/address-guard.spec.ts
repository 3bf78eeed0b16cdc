import { allowedAddresses, isForbiddenAddress } from './address-guard';

describe('webhook address guard', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '::7f00:1',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );

  it('checks what a name resolves to, and literals in brackets', async () => {
    await expect(allowedAddresses('localhost', false)).rejects.toThrow(/may not reach/);
    await expect(allowedAddresses('[::1]', false)).rejects.toThrow(/may not reach/);
    await expect(allowedAddresses('127.0.0.1', false)).rejects.toThrow(/may not reach/);
    expect(await allowedAddresses('127.0.0.1', true)).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(await allowedAddresses('8.8.8.8', false)).toEqual([{ address: '8.8.8.8', family: 4 }]);
  });
});
