/**
 * The API proxy for hosts that keep tokens server-side (seed 000 section 7.3): the browser calls the
 * host (`/api/gatehouse/...`), the host passes the call to Gatehouse with the allowed headers
 * (./headers.ts) and the client IP, and returns Gatehouse's answer as it is (status, body, cookies,
 * the trace id). A Web Request -> Response function, so it runs in Next.js route handlers, Hono
 * and edge runtimes; ./node.ts adapts it to node:http and Express.
 */
import { forwardedRequestHeaders, isValidHeaderValue, returnedResponseHeaders } from './headers.js';

export interface ProxyOptions {
  /** Gatehouse's base URL, e.g. `https://auth.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** The path the proxy is mounted at on the host, stripped before forwarding (default `/`). */
  mountPath?: string;
  /** Sent as the framework header when the browser sent none. */
  framework?: string;
  /** Sent as the application id header when the browser sent none. */
  applicationId?: string;
  /** Keep the incoming X-Forwarded-For chain (only when the host itself is behind a trusted proxy). */
  trustForwardedFor?: boolean;
  /** Gives up on Gatehouse after this long and answers 504 (default 30 s). */
  timeoutMs?: number;
  /**
   * For hosts that keep tokens server-side (e.g. in the sealed session cookie): the access token to
   * send as `Authorization: Bearer …` when the browser sent no Authorization header.
   */
  accessToken?: (request: Request) => Promise<string | null | undefined> | string | null | undefined;
  /**
   * Cookies of the host that never go to Gatehouse (e.g. the session cookie's name: its numbered
   * pieces `<name>.0`, `<name>.1`, … are withheld with it).
   */
  withheldCookies?: readonly string[];
  /** fetch, for runtimes that need their own. */
  fetch?: (input: Request) => Promise<Response>;
}

export interface ProxyRequestContext {
  /** The address the request came from, as the host's server saw it. */
  clientIp?: string | null;
  /**
   * The part of the browser's path a framework already stripped before the proxy saw the request
   * (Express's `req.baseUrl`), so cookie paths can be given back under it.
   */
  strippedPrefix?: string;
}

export type GatehouseProxy = (request: Request, context?: ProxyRequestContext) => Promise<Response>;

const BODYLESS = new Set(['GET', 'HEAD']);
/** A cookie Path value: from `/`, visible ASCII without `;` (RFC 6265 path-value). */
const COOKIE_PATH = /^\/[\x21-\x3a\x3c-\x7e]*$/;

function normalisedMount(mountPath: string | undefined): string {
  const mount = (mountPath ?? '/').replace(/\/+$/, '');
  if (mount && !mount.startsWith('/')) throw new TypeError(`Gatehouse proxy: mountPath "${mountPath}" must start with /`);
  if (mount && !COOKIE_PATH.test(mount)) throw new TypeError(`Gatehouse proxy: mountPath "${mountPath}" must hold no ;, space or control character`);
  return mount;
}

/** The error body of the Gatehouse API, for failures of the proxy itself. */
function failure(status: 502 | 504, message: string): Response {
  return new Response(JSON.stringify({ errors: [message], errorCode: status === 504 ? 'ER-PROXY-TIMEOUT' : 'ER-PROXY-UNREACHABLE' }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * Whether the browser says the request comes from a page of another origin than the host's own:
 * `Sec-Fetch-Site` when the browser sends it (no script can set it), else an Origin whose host is
 * not the request's Host. A request without either (an old browser's GET, a server) counts as the
 * host's own. Pages of the host are the proxy's only legitimate callers: it never answered CORS.
 */
export function isCrossOriginRequest(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site');
  if (site) return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.get('origin');
  if (!origin) return false;
  const host = request.headers.get('host') ?? new URL(request.url).host;
  try {
    return new URL(origin).host !== host;
  } catch {
    // `Origin: null` (a sandboxed frame, a redirect across sites) or garbage.
    return true;
  }
}

/** Removes the withheld cookies (and their numbered pieces) from the Cookie header to send. */
function withholdCookies(headers: Headers, names: readonly string[]): void {
  const cookie = headers.get('cookie');
  if (!cookie) return;
  const withheld = (name: string) => names.some((n) => name === n || (name.startsWith(`${n}.`) && /^\d+$/.test(name.slice(n.length + 1))));
  const kept = cookie.split(';').map((p) => p.trim()).filter((p) => p && !withheld(p.slice(0, p.indexOf('=') < 0 ? p.length : p.indexOf('=')).trim()));
  if (kept.length) headers.set('cookie', kept.join('; '));
  else headers.delete('cookie');
}

/**
 * Gatehouse scopes cookies to its own paths (the refresh cookie to `/identity/resources/auth`);
 * the browser sees them under the host's mount path, so a cookie path below Gatehouse's base path
 * is moved under the mount path (`Path=/api/gatehouse/identity/resources/auth`). Without it the
 * browser never sends the refresh cookie back through the proxy and a reload signs the user out.
 */
export function rewriteCookiePath(setCookie: string, basePath: string, publicPrefix: string): string {
  if (!publicPrefix) return setCookie;
  return setCookie.replace(/(;\s*path\s*=\s*)([^;]*)/i, (whole, attribute: string, value: string) => {
    const path = value.trim();
    if (!path.startsWith('/')) return whole;
    if (basePath && path !== basePath && !path.startsWith(`${basePath}/`)) return whole;
    const rest = path.slice(basePath.length);
    return `${attribute}${publicPrefix}${rest === '/' ? '' : rest}`;
  });
}

/** Builds the proxy; misconfiguration fails here, with a sentence naming the option. */
export function createGatehouseProxy(options: ProxyOptions): GatehouseProxy {
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new TypeError('Gatehouse proxy: baseUrl must be an absolute URL such as https://auth.example.com');
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new TypeError('Gatehouse proxy: baseUrl must be an http or https URL');
  const basePath = base.pathname.replace(/\/+$/, '');
  const mount = normalisedMount(options.mountPath);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const send = options.fetch ?? ((r: Request) => fetch(r));

  return async (request, context = {}) => {
    const incoming = new URL(request.url);
    let path = incoming.pathname;
    if (mount) {
      if (path !== mount && !path.startsWith(`${mount}/`)) return new Response(null, { status: 404 });
      path = path.slice(mount.length) || '/';
    }
    // Only Gatehouse's origin is ever called: the path is set on a copy of the base URL, never parsed as a URL.
    const target = new URL(base);
    target.pathname = `${basePath}${path}`;
    target.search = incoming.search;
    const headers = forwardedRequestHeaders(request.headers, {
      clientIp: context.clientIp,
      trustForwardedFor: options.trustForwardedFor,
      framework: options.framework,
      applicationId: options.applicationId,
    });
    if (options.withheldCookies?.length) withholdCookies(headers, options.withheldCookies);
    // Another site's page (a form, a no-cors fetch) reaches the host with the browser's cookies. So
    // Gatehouse sees its Origin, and refuses it on the calls it guards (refresh, logout, sign-in) as
    // it would a direct call; and the host's session token, which the browser sends by itself
    // through its cookie, is never made that page's Authorization.
    const crossOrigin = isCrossOriginRequest(request);
    const origin = request.headers.get('origin');
    if (crossOrigin && origin) headers.set('origin', isValidHeaderValue(origin) ? origin : 'null');
    if (!crossOrigin && !headers.has('authorization') && options.accessToken) {
      const token = await options.accessToken(request);
      if (token && isValidHeaderValue(token)) headers.set('authorization', `Bearer ${token}`);
    }
    const hasBody = !BODYLESS.has(request.method.toUpperCase()) && request.body !== null;
    const signal = AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]);
    let upstream: Response;
    try {
      upstream = await send(
        new Request(target, {
          method: request.method,
          headers,
          body: hasBody ? request.body : null,
          redirect: 'manual',
          signal,
          ...(hasBody ? { duplex: 'half' } : {}),
        } as RequestInit),
      );
    } catch (err) {
      if ((err as Error)?.name === 'TimeoutError') return failure(504, 'Gatehouse did not answer in time');
      return failure(502, 'Gatehouse could not be reached');
    }
    const returned = returnedResponseHeaders(upstream.headers);
    // The stripped prefix is the browser's own path (Express's req.baseUrl under a mount with a
    // parameter holds whatever the URL said): one with `;` or a control character would write
    // attributes into Gatehouse's cookies (`/t;Domain=example.com;x=/api/gatehouse`), so it is not used.
    const stripped = context.strippedPrefix && COOKIE_PATH.test(context.strippedPrefix) ? context.strippedPrefix.replace(/\/+$/, '') : '';
    const publicPrefix = `${stripped}${mount}`;
    const cookies = returned.getSetCookie();
    if (publicPrefix && cookies.length) {
      returned.delete('set-cookie');
      for (const cookie of cookies) returned.append('set-cookie', rewriteCookiePath(cookie, basePath, publicPrefix));
    }
    return new Response(upstream.status === 204 || upstream.status === 304 || request.method === 'HEAD' ? null : upstream.body, {
      status: upstream.status,
      statusText: upstream.statusText,
      headers: returned,
    });
  };
}
