/**
 * The URLs of SSO: ours (SP entity id, ACS, SP metadata), the IdPs' (checked before the server
 * fetches them), and the login box's callback routes (checked before anyone is sent there).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ErrorCodes, SsoPaths } from '@gatehouse/shared/wire';
import type { Config } from '../../config';
import { AppError, Errors } from '../../errors';

const withId = (template: string, configId: string) => template.replace('{configId}', encodeURIComponent(configId));

/** Our SAML entity id for one configuration: the URL of its SP metadata (resolvable, unique per configuration). */
export const spEntityId = (config: Pick<Config, 'publicUrl'>, configId: string) => `${config.publicUrl}${withId(SsoPaths.samlMetadata, configId)}`;
/** Where the IdP posts the SAML response for one configuration. */
export const acsUrl = (config: Pick<Config, 'publicUrl'>, configId: string) => `${config.publicUrl}${withId(SsoPaths.samlAcs, configId)}`;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The eight 16-bit groups of an IPv6 address (compressed, or with a trailing dotted IPv4); null if it is not one. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
    if ([a, b, c, d].some((n) => n > 255)) return null;
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (s: string) => (s === '' ? [] : s.split(':'));
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? head.length !== 8 : fill < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? fill : 0).fill('0'), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * True for addresses a tenant admin must not make the server call: anything not globally routable
 * (loopback, private, shared, link-local, benchmarking, documentation, reserved, multicast), and
 * IPv6 forms that carry such an IPv4 address (mapped, compatible, NAT64, 6to4) or any IPv4 (Teredo).
 */
export function isPrivateAddress(address: string): boolean {
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (v4) {
    const [a, b, c] = [Number(v4[1]), Number(v4[2]), Number(v4[3])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0 && (c === 0 || c === 2)) ||
      (a === 198 && (b === 18 || b === 19)) ||
      (a === 198 && b === 51 && c === 100) ||
      (a === 203 && b === 0 && c === 113) ||
      a >= 224
    );
  }
  const g = ipv6Groups(address);
  // Neither IPv4 nor IPv6: not an address we can vouch for.
  if (!g) return true;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  // ::, ::1, and IPv4 compatible (::a.b.c.d), mapped (::ffff:a.b.c.d), SIIT (::ffff:0:a.b.c.d)
  if (zeroTo(5) && (g5 === 0 || g5 === 0xffff)) return g5 === 0 && g6 === 0 ? true : isPrivateAddress(v4Of(g6, g7));
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return isPrivateAddress(v4Of(g6, g7));
  // NAT64 (64:ff9b::/96, and the local-use 64:ff9b:1::/48)
  if (g0 === 0x64 && g1 === 0xff9b) return g2 === 1 ? true : isPrivateAddress(v4Of(g6, g7));
  // 6to4 (2002::/16) carries its IPv4 in the next 32 bits
  if (g0 === 0x2002) return isPrivateAddress(v4Of(g1, g2));
  // Teredo (2001:0::/32, an obfuscated IPv4 inside), documentation (2001:db8::/32), discard (100::/64)
  if (g0 === 0x2001 && (g1 === 0 || g1 === 0xdb8)) return true;
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return true;
  // unique local fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8
  return (g0 & 0xfe00) === 0xfc00 || (g0 & 0xffc0) === 0xfe80 || (g0 & 0xffc0) === 0xfec0 || (g0 & 0xff00) === 0xff00;
}

/**
 * An IdP URL the server may call (metadata URL, OIDC issuer): https to a public address. In dev mode
 * plain http to a loopback host is allowed too (IdPs running next to the server in tests).
 */
export async function checkIdpUrl(raw: string, config: Pick<Config, 'sso'>, what: string): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw Errors.validation(`${what} must be a URL`);
  }
  if (url.username || url.password) throw Errors.validation(`${what} must not carry credentials`);
  const loopbackAllowed = config.sso.allowHttpLoopback && LOOPBACK.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackAllowed)) throw Errors.validation(`${what} must be an https URL`);
  if (loopbackAllowed) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw new AppError(ErrorCodes.ssoConfigurationInvalid, 400, `${what}: the host ${url.hostname} could not be resolved`);
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) throw Errors.validation(`${what} must point to a public address`);
  return url;
}

/**
 * The login box's callback route a sign-in returns to: absolute http(s) on the public origin or an
 * allowed origin, no credentials, no fragment. Anything else is refused, so no SSO answer is an
 * open redirect.
 */
export function checkAppRedirect(raw: string, config: Pick<Config, 'publicOrigin' | 'allowedOrigins'>): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw Errors.validation('redirectUri must be an absolute URL');
  }
  const allowed = url.origin === config.publicOrigin || config.allowedOrigins.includes(url.origin);
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !allowed || url.username || url.password || url.hash) {
    throw Errors.validation('redirectUri must be a page of an allowed origin');
  }
  return url.href;
}

/** The domain part of an email address, lowercased; null when it has none. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  const domain = at > 0 ? email.slice(at + 1).trim().toLowerCase() : '';
  return domain && domain.includes('.') ? domain : null;
}
