/**
 * IPv4 and IPv6 addresses and CIDR ranges of IP restrictions (issue 12): strict parsing, one
 * canonical text per range (what the database stores and the unique constraint compares), and
 * matching. Nothing here trusts its input: leading zeros (which some parsers read as octal), zone ids
 * (`fe80::1%eth0`, meaningless to another host), and ranges with host bits set are refused, never
 * guessed at.
 *
 * Canonical forms: IPv4 dotted decimal; IPv6 per RFC 5952 (lower case, no leading zeros, the longest
 * run of two or more zero groups as `::`). A single address has no `/32` or `/128`. An IPv4-mapped
 * IPv6 address or range (`::ffff:1.2.3.4`, `::ffff:10.0.0.0/104`) is stored as its IPv4 form, since
 * a dual-stack socket reports IPv4 clients that way and both must meet the same entry.
 */

export type IpFamily = 4 | 6;

/** One address: its family and its value as an unsigned integer of 32 or 128 bits. */
export interface IpAddress {
  family: IpFamily;
  value: bigint;
}

/** A CIDR range; a single address is the range of its full prefix. */
export interface IpRange extends IpAddress {
  prefix: number;
}

/** Why a text is not an address or range: a sentence for the 400 that names the field. */
export class IpParseError extends Error {
  readonly kind = 'IpParseError';
}

const bitsOf = (family: IpFamily) => (family === 4 ? 32 : 128);
const MAPPED_PREFIX = 0xffffn << 32n;

function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    // Decimal only; "010" could mean 8 (octal) to another parser, so it is refused.
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = (value << 8n) | BigInt(octet);
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  if (text.includes('%')) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (half: string): string[] | null => (half === '' ? [] : half.split(':'));
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return null;
  const words: number[] = [];
  const pushGroups = (groups: string[], last: boolean): boolean => {
    for (let i = 0; i < groups.length; i++) {
      const group = groups[i]!;
      // An embedded IPv4 address may only end the address.
      if (last && i === groups.length - 1 && group.includes('.')) {
        const v4 = parseIpv4(group);
        if (v4 === null) return false;
        words.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return false;
      words.push(parseInt(group, 16));
    }
    return true;
  };
  const compressed = halves.length === 2;
  if (!pushGroups(head, !compressed)) return null;
  const headCount = words.length;
  if (!pushGroups(tail, true)) return null;
  const tailWords = words.splice(headCount);
  if (compressed) {
    // "::" stands for at least one zero group.
    const missing = 8 - headCount - tailWords.length;
    if (missing < 1) return null;
    words.push(...new Array<number>(missing).fill(0));
  }
  words.push(...tailWords);
  if (words.length !== 8) return null;
  return words.reduce((acc, word) => (acc << 16n) | BigInt(word), 0n);
}

/** Parses one address (no prefix); null when it is not a strict IPv4 or IPv6 address. Mapped IPv6 becomes IPv4. */
export function parseIpAddress(text: string): IpAddress | null {
  if (text.length === 0 || text.length > 64) return null;
  if (text.includes(':')) {
    const value = parseIpv6(text);
    if (value === null) return null;
    if (value >> 32n === MAPPED_PREFIX >> 32n) return { family: 4, value: value & 0xffffffffn };
    return { family: 6, value };
  }
  const value = parseIpv4(text);
  return value === null ? null : { family: 4, value };
}

/**
 * A client's address as a socket or a proxy's X-Forwarded-For reports it: an address, possibly with
 * a port (`1.2.3.4:5678`, `[2001:db8::1]:443`, as some proxies write it), which is dropped. Null
 * when it is not an address.
 */
export function parseClientAddress(text: string): IpAddress | null {
  const trimmed = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(trimmed);
  if (bracketed) return parseIpAddress(bracketed[1]!);
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(trimmed);
  return parseIpAddress(v4WithPort ? v4WithPort[1]! : trimmed);
}

/**
 * Parses an address or CIDR range strictly; throws IpParseError with a sentence saying what is
 * wrong. Host bits set after the prefix (`10.1.2.3/8`) are refused, naming the range that was
 * probably meant, rather than silently widened or narrowed.
 */
export function parseIpRange(input: string): IpRange {
  const text = input.trim();
  const slash = text.indexOf('/');
  const addressText = slash === -1 ? text : text.slice(0, slash);
  if (addressText.includes('%')) throw new IpParseError('An address with a zone id (%...) cannot be restricted; leave the zone out');
  const isV6Text = addressText.includes(':');
  const raw = isV6Text ? parseIpv6(addressText) : parseIpv4(addressText);
  if (raw === null) {
    throw new IpParseError(`"${addressText.slice(0, 64)}" is not an IPv4 or IPv6 address (decimal IPv4 octets without leading zeros, or IPv6 groups)`);
  }
  const family: IpFamily = isV6Text ? 6 : 4;
  let prefix = bitsOf(family);
  if (slash !== -1) {
    const prefixText = text.slice(slash + 1);
    if (!/^(0|[1-9][0-9]{0,2})$/.test(prefixText) || Number(prefixText) > bitsOf(family)) {
      throw new IpParseError(`The prefix length must be a whole number from 0 to ${bitsOf(family)}`);
    }
    prefix = Number(prefixText);
  }
  const hostBits = BigInt(bitsOf(family) - prefix);
  const network = (raw >> hostBits) << hostBits;
  if (network !== raw) {
    throw new IpParseError(`${text} has bits set after its /${prefix} prefix; did you mean ${formatRange({ family, value: network, prefix })}?`);
  }
  // IPv4-mapped (::ffff:0:0/96 and inside it) is the IPv4 range it maps.
  if (family === 6 && prefix >= 96 && raw >> 32n === MAPPED_PREFIX >> 32n) return { family: 4, value: raw & 0xffffffffn, prefix: prefix - 96 };
  return { family, value: raw, prefix };
}

function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

function formatIpv6(value: bigint): string {
  const words = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt((7 - i) * 16)) & 0xffffn));
  // RFC 5952: compress the longest run of two or more zero groups, the first one on a tie.
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > best.length && j - i >= 2) best = { start: i, length: j - i };
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (best.start === -1) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

/** The canonical text of an address. */
export function formatAddress(address: IpAddress): string {
  return address.family === 4 ? formatIpv4(address.value) : formatIpv6(address.value);
}

/** The canonical text of a range: a single address without its full prefix. */
export function formatRange(range: IpRange): string {
  const address = formatAddress(range);
  return range.prefix === bitsOf(range.family) ? address : `${address}/${range.prefix}`;
}

/** The canonical text of an address or range; throws IpParseError when it is not one. */
export function canonicalIpRange(input: string): string {
  return formatRange(parseIpRange(input));
}

/** Whether `address` lies in `range` (never across families; mapped addresses are IPv4 already). */
export function rangeContains(range: IpRange, address: IpAddress): boolean {
  if (range.family !== address.family) return false;
  const hostBits = BigInt(bitsOf(range.family) - range.prefix);
  return address.value >> hostBits === range.value >> hostBits;
}
