import { promises as dns } from 'node:dns';
import { allowedAddresses, isForbiddenAddress } from './address-guard';
import { sendMessage } from './webhook-sender';

describe('webhook address guard', () => {
  afterEach(() => jest.restoreAllMocks());

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
    '240.0.0.1',
    '192.0.0.8',
    '192.0.2.1', // documentation
    '198.51.100.7',
    '203.0.113.9',
    '198.18.0.1', // benchmarking
    '198.19.255.255',
    '192.88.99.1', // 6to4 relay anycast
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'fec0::1',
    'ff02::1',
    'ff0e::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '::ffff:192.0.2.1',
    '::7f00:1', // IPv4-compatible: the whole deprecated ::/96, public or not
    '::127.0.0.1',
    '::8.8.8.8',
    '::ffff:0:7f00:1', // IPv4-translated (SIIT)
    '64:ff9b::7f00:1', // NAT64 well-known prefix
    '64:ff9b::127.0.0.1',
    '64:ff9b::a00:1',
    '64:ff9b::c0a8:101',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::',
    '64:ff9b:1::808:808', // local-use NAT64, whatever it embeds
    '64:ff9b:1:7f00:1::',
    '2002:7f00:1::', // 6to4
    '2002:7f00:1::1',
    '2002:a00:1:1::1',
    '2002:c0a8:101::',
    '2002:a9fe:a9fe::1',
    '2002:c000:201::1',
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1
    '2001:0:7f00:1::1', // Teredo, server 127.0.0.1
    '2001:0:808:808:0:0:f7f7:f7f7', // Teredo between public addresses: all of 2001::/23 is refused
    '2001:1::1',
    '2001:2::1', // benchmarking
    '2001:1ff:ffff::1',
    '2001:db8::1', // documentation
    '2001:db8:ffff::1',
    '3fff::1',
    '3fff:fff::1',
    '100::1', // discard
    '5f00::1', // SRv6 SIDs
    '4000::1', // unallocated outside 2000::/3
    'e000::1',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '192.0.3.1',
    '203.0.114.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80e::200e',
    '2001:4860:4860::8888',
    '2001:200::1', // the first allocation after 2001::/23
    '2001:db9::1',
    '3fff:1000::1',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    '2002:5db8:d822:1::1',
  ])('allows the public address %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it('checks what a name resolves to, and literals in brackets', async () => {
    await expect(allowedAddresses('localhost', false)).rejects.toThrow(/may not reach/);
    await expect(allowedAddresses('[::1]', false)).rejects.toThrow(/may not reach/);
    await expect(allowedAddresses('127.0.0.1', false)).rejects.toThrow(/may not reach/);
    await expect(allowedAddresses('[64:ff9b::7f00:1]', false)).rejects.toThrow(/may not reach/);
    await expect(allowedAddresses('[2002:7f00:1::]', false)).rejects.toThrow(/may not reach/);
    expect(await allowedAddresses('127.0.0.1', true)).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(await allowedAddresses('8.8.8.8', false)).toEqual([{ address: '8.8.8.8', family: 4 }]);
    expect(await allowedAddresses('[64:ff9b::808:808]', false)).toEqual([{ address: '64:ff9b::808:808', family: 6 }]);
  });

  it.each(['64:ff9b::7f00:1', '2002:7f00:1::', '::ffff:7f00:1', '2001:0:4136:e378:8000:63bf:80ff:fffe'])(
    'refuses a name resolving to %s, at registration and when connecting',
    async (address) => {
      const lookup = jest.spyOn(dns, 'lookup').mockResolvedValue([
        { address: '2606:4700:4700::1111', family: 6 },
        { address, family: 6 },
      ] as never);
      await expect(allowedAddresses('hook.example', false)).rejects.toThrow(`resolves to ${address}, which`);
      const sent = await sendMessage('http://hook.example:1234/x', {}, '{}', { timeoutMs: 2_000, allowPrivate: false });
      expect(sent).toMatchObject({ status: null, error: expect.stringMatching(/may not reach/) });
      expect(lookup).toHaveBeenCalledWith('hook.example', expect.anything());
    },
  );

  it('connects to a name resolving to a public address in NAT64 form', async () => {
    jest.spyOn(dns, 'lookup').mockResolvedValue([{ address: '64:ff9b::808:808', family: 6 }] as never);
    expect(await allowedAddresses('hook.example', false)).toEqual([{ address: '64:ff9b::808:808', family: 6 }]);
  });
});
