import { ErrorCodes, HOSTED_ROUTES_PREFIX } from '@gatehouse/shared/wire';
import type { Context, MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Config } from '../config';
import { AppError } from '../errors';
import type { AuthService, RequestClient } from '../services/auth/auth';
import type { AppEnv } from './env';
import { supportedLocale } from '@gatehouse/shared/i18n';

/** Sets a header even on responses whose headers are immutable (e.g. fetched or static ones). */
export function setHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set(name, value);
  }
}

/** Baseline headers on the answer (http/edge.ts); JSON answers are never framed, sniffed or cached (they may hold tokens). */
export function applySecurityHeaders(c: Context): void {
  const h = c.res.headers;
  if (!h.has('x-content-type-options')) setHeader(c, 'X-Content-Type-Options', 'nosniff');
  if (!h.has('referrer-policy')) setHeader(c, 'Referrer-Policy', 'no-referrer');
  if ((h.get('content-type') ?? '').includes('application/json')) {
    if (!h.has('content-security-policy')) setHeader(c, 'Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
    if (!h.has('x-frame-options')) setHeader(c, 'X-Frame-Options', 'DENY');
    if (!h.has('cache-control')) setHeader(c, 'Cache-Control', 'no-store');
  }
}

export function isAllowedOrigin(config: Pick<Config, 'allowedOrigins' | 'publicOrigin'>, origin: string): boolean {
  return origin === config.publicOrigin || config.allowedOrigins.includes(origin);
}

/**
 * True when the request comes from a hosted page (`/oauth/account/*` or `/oauth/portal`): its Origin
 * is the server's own and its Referer (full URL on same-origin requests; the hosted pages send
 * `strict-origin-when-cross-origin`) is one of those paths. Origin alone would not do: the demo page
 * in dev mode, or a host app behind the same origin, shares it. Neither header is a script's to set.
 */
export function isHostedPageRequest(c: Context, config: Pick<Config, 'publicOrigin' | 'publicUrl'>): boolean {
  if (c.req.header('origin') !== config.publicOrigin) return false;
  let referer: URL;
  try {
    referer = new URL(c.req.header('referer') ?? '');
  } catch {
    return false;
  }
  if (referer.origin !== config.publicOrigin) return false;
  const hosted = `${new URL(config.publicUrl).pathname.replace(/\/$/, '')}${HOSTED_ROUTES_PREFIX}`;
  return referer.pathname.startsWith(`${hosted}/account/`) || referer.pathname === `${hosted}/portal`;
}

/**
 * Where email links point (services append the seed's `/account/...` route): the hosted pages for a
 * request from them, else the page that asked when its origin is one of ours, else the app URL.
 * Only ever one of the server's configured bases, never anything the client supplies.
 */
export function emailLinkBase(c: Context, config: Pick<Config, 'allowedOrigins' | 'publicOrigin' | 'publicUrl' | 'appUrl'>): string {
  if (isHostedPageRequest(c, config)) return `${config.publicUrl}${HOSTED_ROUTES_PREFIX}`;
  const origin = c.req.header('origin');
  return origin && isAllowedOrigin(config, origin) ? origin : config.appUrl;
}

/**
 * CORS with credentials for the configured origins only (http/edge.ts). A disallowed origin gets no
 * CORS headers at all (hono's cors() would still send Allow-Credentials). The answer to a preflight,
 * or null when the request is not one.
 */
export function corsPreflight(c: Context, config: Pick<Config, 'allowedOrigins' | 'publicOrigin'>): Response | null {
  const origin = c.req.header('origin');
  if (c.req.method !== 'OPTIONS' || !origin || !c.req.header('access-control-request-method')) return null;
  const headers = new Headers({ Vary: 'Origin, Access-Control-Request-Headers' });
  if (isAllowedOrigin(config, origin)) {
    headers.set('Access-Control-Allow-Origin', origin);
    headers.set('Access-Control-Allow-Credentials', 'true');
    headers.set('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
    const requested = c.req.header('access-control-request-headers');
    if (requested) headers.set('Access-Control-Allow-Headers', requested);
    headers.set('Access-Control-Max-Age', '600');
  }
  return new Response(null, { status: 204, headers });
}

/** The CORS headers of an answer (not a preflight's): `Vary: Origin` always, the rest for an allowed origin. */
export function applyCors(c: Context, config: Pick<Config, 'allowedOrigins' | 'publicOrigin'>): void {
  const origin = c.req.header('origin');
  c.res.headers.append('Vary', 'Origin');
  if (origin !== undefined && isAllowedOrigin(config, origin)) {
    setHeader(c, 'Access-Control-Allow-Origin', origin);
    setHeader(c, 'Access-Control-Allow-Credentials', 'true');
    setHeader(c, 'Access-Control-Expose-Headers', 'x-trace-id');
  }
}

/**
 * CSRF guard for calls that act on the refresh cookie: a browser always sends Origin on such
 * cross-site POSTs, so a present, disallowed Origin is refused before anything else happens.
 */
export function requireAllowedOrigin(config: Pick<Config, 'allowedOrigins' | 'publicOrigin'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && !isAllowedOrigin(config, origin)) throw new AppError(ErrorCodes.originNotAllowed, 403, 'Origin not allowed');
    await next();
  };
}

/** Bearer authentication; `?tenantId=` scopes the call to another tenant of the user (seed 000 section 7). */
export function requireAuth(auth: AuthService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const client = c.get('client') ?? { ip: null, userAgent: null };
    const ctx = await auth.authenticate(c.req.header('authorization'), c.req.query('tenantId') || undefined, client);
    c.set('auth', { ...ctx, client });
    await next();
  };
}

/** Header the login box and the portal send with the language they show (the `locale` option). */
export const LOCALE_HEADER = 'x-gatehouse-locale';

/**
 * The supported locale a request asks for: X-Gatehouse-Locale (the bundles' `locale`), else the
 * first supported language of Accept-Language by quality; undefined when neither names one.
 */
export function requestLocale(c: Context): string | undefined {
  const explicit = supportedLocale(c.req.header(LOCALE_HEADER)?.slice(0, 35));
  if (explicit) return explicit;
  const header = c.req.header('accept-language');
  if (!header) return undefined;
  const ranked = header
    .slice(0, 512)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(/^\s*q=([0-9.]+)\s*$/.exec(params.join(';'))?.[1] ?? '1');
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const found = supportedLocale(tag);
    if (found) return found;
  }
  return undefined;
}

/** The request's `client` (IP, user agent, asked-for locale), set on every request (http/edge.ts) for audit records and emails. */
export function requestClientOf(c: Context, config: Pick<Config, 'trustProxy'>): RequestClient {
  const locale = requestLocale(c);
  return { ip: clientIp(c, config), userAgent: c.req.header('user-agent')?.slice(0, 512) ?? null, ...(locale ? { locale } : {}) };
}

/** Client IP: X-Forwarded-For only behind a trusted proxy, else the socket address. */
export function clientIp(c: Context, config: Pick<Config, 'trustProxy'>): string | null {
  if (config.trustProxy) {
    // The proxy appends the address it saw; entries to its left are whatever the client sent.
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  try {
    const address = getConnInfo(c).remote.address;
    // IPv4 clients on a dual-stack socket show up as ::ffff:a.b.c.d.
    return address ? address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1') : null;
  } catch {
    return null; // not running under @hono/node-server (e.g. app.fetch in tests)
  }
}
