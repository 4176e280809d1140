import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from './urls';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '192.0.0.8', '192.0.2.10', '198.18.0.1', '198.19.255.255', '198.51.100.7', '203.0.113.9', '224.0.0.1', '255.255.255.255',
  ])('refuses the IPv4 address %s, which is not globally routable', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.0.1.1', '198.20.0.1', '100.128.0.1'])('accepts the public IPv4 address %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it.each([
    '::', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:0:a00:1', '::10.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::1',
    '2002:7f00:1::', '2002:c0a8:101::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:db8::1', '100::1',
    'fc00::1', 'fd12:3456::1', 'fe80::1', 'febf::1', 'fec0::1', 'ff02::1', 'fe80::1%eth0',
  ])('refuses the IPv6 address %s, which is local or carries a local IPv4 address', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['2606:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '2002:808:808::1', '64:ff9b::808:808'])('accepts the public IPv6 address %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it.each(['', 'example.com', '1::2::3', '12345::', '::ffff:300.1.1.1', '1:2:3:4:5:6:7'])('treats %j, which is not an address, as not public', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });
});
