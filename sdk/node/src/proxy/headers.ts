/**
 * Which request headers the API proxy passes on (seed 000 section 7.3): authorization, cookie,
 * accept, language, user agent, client IP, application id, login alias, framework and SDK version,
 * plus the content type a body needs and the markers the browser client sets. Everything else stays
 * with the host: an allowlist, so the host's own headers (its session cookie secret, internal
 * routing headers) never reach Gatehouse by accident. Hop-by-hop headers, `connection` and the
 * headers it names, and values that are not valid header text are dropped (seed 000 section 5).
 */

/** Version of this package, sent as the SDK marker when the browser sent none. */
export const SDK_VERSION = '0.1.0';
export const SDK_MARKER = `gatehouse-node@${SDK_VERSION}`;

/** Request headers the Gatehouse browser client (shared/src/constants.ts) and this proxy use. */
export const ProxyHeaders = {
  applicationId: 'x-gatehouse-application-id',
  loginAlias: 'x-gatehouse-login-alias',
  framework: 'x-gatehouse-framework',
  sdk: 'x-gatehouse-sdk',
  source: 'x-gatehouse-source',
  clientId: 'x-gatehouse-client-id',
  locale: 'x-gatehouse-locale',
  scopedTenant: 'x-gatehouse-tenant-id',
} as const;

/** Request headers passed on as sent (when valid). */
export const FORWARDED_REQUEST_HEADERS: readonly string[] = [
  'authorization',
  'cookie',
  'accept',
  'accept-language',
  'user-agent',
  'content-type',
  ...Object.values(ProxyHeaders),
];

/** Hop-by-hop headers (RFC 9110 7.6.1), never passed on in either direction. */
export const HOP_BY_HOP_HEADERS: readonly string[] = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

/** Header text: visible ASCII, spaces and tabs inside; no control characters, no bytes past 0x7e. */
const VALID_VALUE = /^[\x21-\x7e]([\t\x20-\x7e]*[\x21-\x7e])?$/;
/** An IPv4 or IPv6 address as a socket reports it. */
const IP = /^[0-9A-Fa-f:.]{2,45}$/;

export function isValidHeaderValue(value: string): boolean {
  return VALID_VALUE.test(value);
}

/** Header names listed by `connection` (which are hop-by-hop for this request too). */
function connectionListed(headers: Headers): Set<string> {
  const value = headers.get('connection') ?? '';
  return new Set(value.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean));
}

export interface ForwardContext {
  /** The address the host's server saw the request come from (the socket's remote address). */
  clientIp?: string | null;
  /** Keep the incoming X-Forwarded-For chain and append to it (only behind a trusted proxy). */
  trustForwardedFor?: boolean;
  /** Sent as the framework header when the browser sent none (e.g. `express`, `next`). */
  framework?: string;
  /** Sent as the application id header when the browser sent none. */
  applicationId?: string;
}

/** The headers to send to Gatehouse for an incoming request. */
export function forwardedRequestHeaders(incoming: Headers, context: ForwardContext = {}): Headers {
  const out = new Headers();
  const dropped = connectionListed(incoming);
  for (const name of FORWARDED_REQUEST_HEADERS) {
    if (dropped.has(name)) continue;
    const value = incoming.get(name)?.trim();
    if (value && isValidHeaderValue(value)) out.set(name, value);
  }
  const ip = context.clientIp?.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
  const chain: string[] = [];
  if (context.trustForwardedFor) {
    const sent = incoming.get('x-forwarded-for') ?? '';
    if (isValidHeaderValue(sent)) chain.push(...sent.split(',').map((s) => s.trim()).filter((s) => IP.test(s)));
  }
  if (ip && IP.test(ip)) chain.push(ip);
  if (chain.length) out.set('x-forwarded-for', chain.join(', '));
  if (!out.has(ProxyHeaders.sdk)) out.set(ProxyHeaders.sdk, SDK_MARKER);
  // fetch would send its own ("node" in Node), which Gatehouse would record as the user's browser.
  if (!out.has('user-agent')) out.set('user-agent', SDK_MARKER);
  if (!out.has(ProxyHeaders.framework) && context.framework && isValidHeaderValue(context.framework)) out.set(ProxyHeaders.framework, context.framework);
  if (!out.has(ProxyHeaders.applicationId) && context.applicationId && isValidHeaderValue(context.applicationId)) out.set(ProxyHeaders.applicationId, context.applicationId);
  return out;
}

/**
 * The response headers to pass back: all but hop-by-hop ones and CORS grants, and without
 * content-encoding and content-length, since fetch has already decoded the body the host sends on.
 */
export function returnedResponseHeaders(upstream: Headers): Headers {
  const out = new Headers();
  const dropped = connectionListed(upstream);
  upstream.forEach((value, name) => {
    if (name === 'set-cookie' || dropped.has(name) || HOP_BY_HOP_HEADERS.includes(name) || name === 'content-encoding' || name === 'content-length') return;
    // CORS grants are Gatehouse's for its own origin: the proxy answers the host's pages only.
    if (name.startsWith('access-control-')) return;
    out.set(name, value);
  });
  for (const cookie of upstream.getSetCookie()) out.append('set-cookie', cookie);
  return out;
}
