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

/** True for addresses a tenant admin must not make the server call: loopback, private, link-local. */
export function isPrivateAddress(address: string): boolean {
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.(\d+)$/i.exec(address);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || a >= 224;
  }
  const v6 = address.toLowerCase();
  // IPv4 inside IPv6 (mapped ::ffff:, SIIT ::ffff:0:, compatible ::, NAT64 64:ff9b::) reaches that
  // IPv4 host; URL parsing writes [::ffff:127.0.0.1] as [::ffff:7f00:1], so read the hex form too.
  const embedded = /^(?:::(?:ffff:(?:0:)?)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (embedded) {
    const [hi, lo] = [parseInt(embedded[1]!, 16), parseInt(embedded[2]!, 16)];
    return isPrivateAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return v6 === '::' || v6 === '::1' || v6.startsWith('fc') || v6.startsWith('fd') || v6.startsWith('fe8') || v6.startsWith('fe9') || v6.startsWith('fea') || v6.startsWith('feb');
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
