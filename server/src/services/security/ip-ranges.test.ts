import { describe, expect, it } from 'vitest';
import { canonicalIpRange, formatAddress, IpParseError, parseClientAddress, parseIpAddress, parseIpRange, rangeContains } from './ip-ranges';

const contains = (range: string, address: string) => {
  const parsed = parseIpAddress(address);
  if (!parsed) throw new Error(`test address ${address} did not parse`);
  return rangeContains(parseIpRange(range), parsed);
};

describe('canonicalIpRange', () => {
  it('keeps IPv4 addresses and ranges in dotted decimal, without a /32 on a single address', () => {
    expect(canonicalIpRange('10.0.0.0/8')).toBe('10.0.0.0/8');
    expect(canonicalIpRange('203.0.113.7/32')).toBe('203.0.113.7');
    expect(canonicalIpRange(' 192.168.1.1 ')).toBe('192.168.1.1');
    expect(canonicalIpRange('0.0.0.0/0')).toBe('0.0.0.0/0');
  });

  it('writes IPv6 compressed and lower case (RFC 5952), without a /128 on a single address', () => {
    expect(canonicalIpRange('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(canonicalIpRange('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(canonicalIpRange('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1');
    expect(canonicalIpRange('2001:DB8::/32')).toBe('2001:db8::/32');
    expect(canonicalIpRange('::1/128')).toBe('::1');
    expect(canonicalIpRange('::/0')).toBe('::/0');
    expect(canonicalIpRange('1:2:3:4:5:6:7::')).toBe('1:2:3:4:5:6:7:0');
  });

  it('stores an IPv4-mapped IPv6 address or range as its IPv4 form', () => {
    expect(canonicalIpRange('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(canonicalIpRange('::FFFF:102:304')).toBe('1.2.3.4');
    expect(canonicalIpRange('::ffff:10.0.0.0/104')).toBe('10.0.0.0/8');
  });

  it('refuses a range with host bits set, naming the network that was probably meant', () => {
    expect(() => canonicalIpRange('10.1.2.3/8')).toThrow(/did you mean 10\.0\.0\.0\/8/);
    expect(() => canonicalIpRange('2001:db8::1/32')).toThrow(/did you mean 2001:db8::\/32/);
  });

  it.each([
    ['010.0.0.1', 'leading zero (octal to some parsers)'],
    ['1.2.3.04', 'leading zero in the last octet'],
    ['256.1.1.1', 'octet above 255'],
    ['1.2.3', 'three octets'],
    ['1.2.3.4.5', 'five octets'],
    ['fe80::1%eth0', 'zone id'],
    ['fe80::1%1/64', 'zone id with a prefix'],
    ['1.2.3.4/33', 'IPv4 prefix above 32'],
    ['::1/129', 'IPv6 prefix above 128'],
    ['1.2.3.4/08', 'prefix with a leading zero'],
    ['1.2.3.4/', 'empty prefix'],
    ['1::2::3', 'two ::'],
    ['1:2:3:4:5:6:7:8:9', 'nine groups'],
    ['1:2:3:4:5:6:7:8::', ':: standing for no group'],
    ['12345::', 'group of five digits'],
    ['::1.2.3.4:5', 'embedded IPv4 not at the end'],
    ['localhost', 'a host name'],
    ['', 'empty'],
    ['1.2.3.4 ; drop table', 'trailing garbage'],
  ])('refuses %s (%s)', (input) => {
    expect(() => parseIpRange(input)).toThrow(IpParseError);
  });
});

describe('rangeContains', () => {
  it('matches a /32 and a /128 only on the very address', () => {
    expect(contains('203.0.113.7/32', '203.0.113.7')).toBe(true);
    expect(contains('203.0.113.7/32', '203.0.113.8')).toBe(false);
    expect(contains('2001:db8::1/128', '2001:db8::1')).toBe(true);
    expect(contains('2001:db8::1/128', '2001:db8::2')).toBe(false);
  });

  it('matches everything of its family with /0, and nothing of the other family', () => {
    expect(contains('0.0.0.0/0', '255.255.255.255')).toBe(true);
    expect(contains('0.0.0.0/0', '2001:db8::1')).toBe(false);
    expect(contains('::/0', 'ffff:ffff::')).toBe(true);
    expect(contains('::/0', '8.8.8.8')).toBe(false);
  });

  it('matches the edges of a range and not one past them', () => {
    expect(contains('10.0.0.0/8', '10.0.0.0')).toBe(true);
    expect(contains('10.0.0.0/8', '10.255.255.255')).toBe(true);
    expect(contains('10.0.0.0/8', '11.0.0.0')).toBe(false);
    expect(contains('10.0.0.0/8', '9.255.255.255')).toBe(false);
    expect(contains('2001:db8::/32', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff')).toBe(true);
    expect(contains('2001:db8::/32', '2001:db9::')).toBe(false);
  });

  it('matches an IPv4-mapped client address against its IPv4 entry, and the other way round', () => {
    expect(contains('1.2.3.0/24', '::ffff:1.2.3.4')).toBe(true);
    expect(contains('::ffff:1.2.3.4', '1.2.3.4')).toBe(true);
    expect(contains('1.2.3.0/24', '::ffff:1.2.4.4')).toBe(false);
  });

  it('does not read an IPv4-compatible or NAT64 address as IPv4', () => {
    expect(parseIpAddress('::1.2.3.4')?.family).toBe(6);
    expect(contains('1.2.3.4', '64:ff9b::1.2.3.4')).toBe(false);
  });

  it('parses client addresses strictly: garbage, zone ids and prefixes are not addresses', () => {
    expect(parseIpAddress('not-an-ip')).toBeNull();
    expect(parseIpAddress('fe80::1%eth0')).toBeNull();
    expect(parseIpAddress('10.0.0.0/8')).toBeNull();
    expect(parseIpAddress('01.2.3.4')).toBeNull();
  });
});

describe('parseClientAddress', () => {
  it('drops the port some proxies write after a client address, and keeps the address', () => {
    expect(formatAddress(parseClientAddress('203.0.113.7:51234')!)).toBe('203.0.113.7');
    expect(formatAddress(parseClientAddress('[2001:DB8::1]:443')!)).toBe('2001:db8::1');
    expect(formatAddress(parseClientAddress('[::ffff:203.0.113.7]')!)).toBe('203.0.113.7');
    expect(formatAddress(parseClientAddress(' 2001:db8::1 ')!)).toBe('2001:db8::1');
  });

  it('is no more lenient about the address itself', () => {
    expect(parseClientAddress('203.0.113.7:')).toBeNull();
    expect(parseClientAddress('[fe80::1%eth0]:443')).toBeNull();
    expect(parseClientAddress('010.0.0.1:80')).toBeNull();
    expect(parseClientAddress('unknown')).toBeNull();
  });
});
