/**
 * Hosted login over HTTP: discovery, authorize, token, userinfo and logout (OAuth 2.0 / OIDC), the
 * two identity-API calls of the hosted page and the hosted-mode loader (completion and silent
 * authorization), and the hosted pages. Rules live in services/oauth/provider.ts.
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { AuthorizeCompletionRequest, AuthorizeCompletionResponse, OAuthPaths, OAuthTokenResponse, SecurityErrorCodes, SilentAuthorizeRequest } from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Config } from '../../config';
import type { AppError } from '../../errors';
import { clearRefreshCookie, readRefreshCookie, sameSite } from '../../http/cookies';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { clientIp, requireAllowedOrigin, requireAuth } from '../../http/middleware';
import { OAuthError, REAUTHENTICATE_PATH, type OAuthParams, type OAuthService } from '../../services/oauth/provider';
import type { RouteDeps } from '../deps';
import { liveLoader } from '../platform/demo';
import { body, err, json } from '../openapi';
import { renderHostedPage, renderMessagePage, type MessagePage } from './pages';

/** Paths that answer CORS themselves: any page may call them without credentials (RFC 6749 section 3.2; OIDC Discovery). */
export function isOAuthCorsPath(path: string): boolean {
  return path === OAuthPaths.token || path === OAuthPaths.userinfo || path === OAuthPaths.discovery;
}

/** The httpOnly cookie by which the `/oauth` endpoints know the browser's Gatehouse session. */
export function oauthBrowserCookieName(clientId: string): string {
  return `gatehouse-oauth-${clientId.replace(/-/g, '')}`;
}

type CookieConfig = Pick<Config, 'clientId' | 'cookieSameSite' | 'cookieSecure' | 'refreshTokenTtl'>;
const BROWSER_COOKIE_PATH = '/oauth';

function clearBrowserCookies(c: Context, config: CookieConfig): void {
  deleteCookie(c, oauthBrowserCookieName(config.clientId), { path: BROWSER_COOKIE_PATH, secure: config.cookieSecure, httpOnly: true, sameSite: sameSite(config.cookieSameSite) });
  clearRefreshCookie(c, config);
}

function messagePage(c: Context, page: MessagePage, status: 200 | 400 | 403 | 429, alert = status !== 200): Response {
  const { html, csp } = renderMessagePage(page, alert);
  // same-origin, not no-referrer: under no-referrer a form post carries `Origin: null`, and the logout form needs its Origin.
  return c.html(html, status, { 'Content-Security-Policy': csp, 'Cache-Control': 'no-store', 'Referrer-Policy': 'same-origin' });
}

const errorPage = (c: Context, error: AppError) =>
  // The IP restriction's refusal keeps its 403 (issue 12); every other refusal of the request is a 400.
  messagePage(c, { title: error.status === 429 ? 'Too many attempts' : 'Sign-in request refused', message: error.message }, error.status === 429 ? 429 : error.code === SecurityErrorCodes.ipRestricted ? 403 : 400);

/** Form or query parameters, keeping repeats (the service refuses them). */
function paramsOf(search: URLSearchParams): OAuthParams {
  const params: OAuthParams = {};
  for (const name of new Set(search.keys())) {
    const values = search.getAll(name);
    params[name] = values.length === 1 ? values[0] : values;
  }
  return params;
}

/** RFC 6749 section 2.3.1: `Basic base64(urlencode(id):urlencode(secret))`; null when absent. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const at = decoded.indexOf(':');
  if (at < 1) throw new OAuthError('invalid_client', 'Malformed Basic client credentials', 401);
  const unescape = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  try {
    return { id: unescape(decoded.slice(0, at)), secret: unescape(decoded.slice(at + 1)) };
  } catch {
    throw new OAuthError('invalid_client', 'Malformed Basic client credentials', 401);
  }
}

function oauthErrorResponse(c: Context, error: unknown, headers: Record<string, string> = {}): Response {
  if (!(error instanceof OAuthError)) throw error;
  const extra: Record<string, string> = { 'Cache-Control': 'no-store', ...headers };
  const retry = (error as OAuthError & { retryAfterSeconds?: number }).retryAfterSeconds;
  if (error.status === 429 && retry) extra['Retry-After'] = String(Math.max(1, Math.ceil(retry)));
  return c.json({ error: error.error, error_description: error.description }, error.status as 400, extra);
}

export function oauthRoutes(deps: RouteDeps, oauth: OAuthService): OpenAPIHono<AppEnv> {
  const { auth, config } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const browserCookie = oauthBrowserCookieName(config.clientId);

  // Preflights of the endpoints any page may call: the answers themselves are what is gated.
  const preflight = (c: Context) =>
    c.body(null, 204, {
      'Access-Control-Allow-Origin': c.req.header('origin') ?? '*',
      'Access-Control-Allow-Methods': 'GET, POST',
      'Access-Control-Allow-Headers': 'authorization, content-type',
      'Access-Control-Max-Age': '600',
      Vary: 'Origin',
    });
  app.options(OAuthPaths.token, preflight);
  app.options(OAuthPaths.userinfo, preflight);

  app.get(OAuthPaths.discovery, (c) => c.json(oauth.discovery(), 200, { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=300' }));

  app.get(OAuthPaths.authorize, async (c) => {
    const outcome = await oauth.authorize(c.req.queries(), getCookie(c, browserCookie), clientIp(c, config));
    if (outcome.kind === 'page') return errorPage(c, outcome.error);
    c.header('Cache-Control', 'no-store');
    return c.redirect(outcome.url, 302);
  });

  /**
   * prompt=login or max_age with a signed-in browser: the user is asked first, and only the POST of
   * this page (Origin = the server's own) ends the browser's session (revoked on the server) and clears
   * its cookies so the login page asks for a sign-in. A cross-site GET can show the question but never signs anyone out.
   */
  const reauthenticate = async (c: Context, params: OAuthParams, confirmed: boolean) => {
    const cookies = confirmed ? { browserCookie: getCookie(c, browserCookie), refreshCookie: readRefreshCookie(c, config) } : undefined;
    const outcome = await oauth.reauthenticate(params, confirmed, cookies);
    if (outcome.kind === 'page') return errorPage(c, outcome.error);
    if (outcome.kind === 'confirm') {
      const fields = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]).filter((e): e is [string, string] => typeof e[1] === 'string'));
      return messagePage(c, {
        title: 'Sign in again?',
        message: 'The application asks you to sign in again before it goes on. Signing in again replaces your current sign-in in this browser.',
        form: { action: c.req.path, fields, confirm: 'Sign in again', cancelHref: outcome.cancelUrl, cancel: 'Cancel' },
      }, 200);
    }
    c.header('Cache-Control', 'no-store');
    if (outcome.kind === 'login') clearBrowserCookies(c, config);
    return c.redirect(outcome.url, 302);
  };
  app.get(REAUTHENTICATE_PATH, (c) => reauthenticate(c, c.req.queries(), false));
  app.post(REAUTHENTICATE_PATH, async (c) => {
    if (c.req.header('origin') !== config.publicOrigin) return messagePage(c, { title: 'Request refused', message: 'This request did not come from the Gatehouse sign-in page.' }, 403);
    const type = c.req.header('content-type') ?? '';
    const form = type.startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(await c.req.text()) : new URLSearchParams();
    return reauthenticate(c, paramsOf(form), true);
  });

  app.openapi(
    createRoute({
      method: 'post',
      path: OAuthPaths.authorizeComplete,
      tags: ['oauth'],
      summary: 'Carry on an authorization request from the hosted login page once signed in: issues the code',
      description: 'The body is the query of the GET /oauth/authorize request, validated the same way. Sets the httpOnly `/oauth` cookie by which later authorization requests know this browser.',
      security: [{ Bearer: [] }],
      middleware: [requireAllowedOrigin(config), requireAuth(auth)] as const,
      request: body(AuthorizeCompletionRequest),
      responses: {
        200: json(AuthorizeCompletionResponse, "Where the browser goes: the client's redirect URI with code (or error), state and iss"),
        400: err('Unknown client_id, or a redirect_uri not registered for it'),
        401: err('No valid access token'),
        403: err('The token is not a browser sign-in (an application grant), or the origin is not allowed'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => {
      const { redirectUrl, browserCookie: token } = await oauth.completeAuthorize(c.req.valid('json'), c.get('auth'), clientIp(c, config));
      if (token) {
        setCookie(c, browserCookie, token, { httpOnly: true, secure: config.cookieSecure, sameSite: sameSite(config.cookieSameSite), path: BROWSER_COOKIE_PATH, maxAge: config.refreshTokenTtl });
      }
      return c.json({ redirectUrl }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: OAuthPaths.authorizeSilent,
      tags: ['oauth'],
      summary: "Silent refresh of hosted login: tokens for a public client from the browser's Gatehouse session",
      description: 'Reads the refresh cookie without spending it, so it answers no refresh token: each renewal comes back here, where the cookie must still be the live one. The calling page must be on an origin of the client (its redirect URIs).',
      middleware: [requireAllowedOrigin(config)] as const,
      request: body(SilentAuthorizeRequest),
      responses: {
        200: json(OAuthTokenResponse, 'Access token and ID token of the grant (no refresh token)'),
        400: err('Unknown or confidential client'),
        401: err('Not signed in (login required)'),
        403: err("The page's origin is not the client's, the tenant's IP restrictions keep the caller's network out (ER-IP-RESTRICTED), or the client's application is MANAGED_ACCESS and the user is not assigned to it (ER-05101)"),
        429: rateLimitedResponse,
      },
    }),
    async (c) => {
      const tokens = await oauth.silent(c.req.valid('json').clientId, readRefreshCookie(c, config), c.req.header('origin'), clientIp(c, config));
      return c.json(tokens, 200, { 'Cache-Control': 'no-store' });
    },
  );

  app.post(OAuthPaths.token, async (c) => {
    const origin = c.req.header('origin');
    const type = c.req.header('content-type') ?? '';
    const form = type.startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(await c.req.text()) : null;
    const clientId = form?.get('client_id') ?? undefined;
    const cors = async (id: string | undefined): Promise<Record<string, string>> =>
      origin && (await oauth.corsAllowed(id, origin)) ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' } : { Vary: 'Origin' };
    let basic: { id: string; secret: string } | null = null;
    try {
      if (!form) throw new OAuthError('invalid_request', 'The token endpoint takes application/x-www-form-urlencoded');
      basic = basicCredentials(c.req.header('authorization'));
      const { body: tokens, client } = await oauth.token(paramsOf(form), basic, clientIp(c, config));
      return c.json(tokens, 200, { 'Cache-Control': 'no-store', Pragma: 'no-cache', ...(await cors(client.clientId)) });
    } catch (error) {
      const challenge: Record<string, string> = error instanceof OAuthError && error.status === 401 && (basic || c.req.header('authorization')) ? { 'WWW-Authenticate': 'Basic realm="gatehouse"' } : {};
      return oauthErrorResponse(c, error, { ...challenge, ...(await cors(basic?.id ?? clientId)) });
    }
  });

  const userinfo = async (c: Context) => {
    const cors = { 'Access-Control-Allow-Origin': '*' };
    try {
      return c.json(await oauth.userinfo(c.req.header('authorization'), clientIp(c, config)), 200, { 'Cache-Control': 'no-store', ...cors });
    } catch (error) {
      const e = error instanceof OAuthError ? error : null;
      return oauthErrorResponse(c, error, { ...cors, ...(e ? { 'WWW-Authenticate': `Bearer error="${e.error}", error_description="${e.description}"` } : {}) });
    }
  };
  app.get(OAuthPaths.userinfo, userinfo);
  app.post(OAuthPaths.userinfo, userinfo);

  /** RP-initiated logout (OIDC RP-Initiated Logout 1.0): the post-logout URI is checked before anything happens. */
  const logout = async (c: Context, params: OAuthParams, confirmed: boolean) => {
    const outcome = await oauth.logout({ params, browserCookie: getCookie(c, browserCookie), refreshCookie: readRefreshCookie(c, config), confirmed });
    if (outcome.kind === 'page') return errorPage(c, outcome.error);
    if (outcome.kind === 'confirm') {
      const fields = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]).filter((e): e is [string, string] => typeof e[1] === 'string'));
      const target = fields.post_logout_redirect_uri ? [new URL(fields.post_logout_redirect_uri).origin] : [];
      return messagePage(c, {
        title: 'Sign out?',
        message: 'An application asked to sign you out of Gatehouse. Signing out ends your session in every application that uses it.',
        // Posted back to the same path, so the same cookies come along.
        form: { action: c.req.path, fields, confirm: 'Sign out', cancelHref: OAuthPaths.portal },
        formTargets: target,
      }, 200);
    }
    clearBrowserCookies(c, config);
    c.header('Cache-Control', 'no-store');
    if (outcome.redirect) return c.redirect(outcome.redirect, 302);
    return messagePage(c, { title: "You're signed out", message: 'You have signed out of Gatehouse. You can close this page.' }, 200);
  };
  app.get(OAuthPaths.logout, (c) => logout(c, c.req.queries(), false));
  app.get(OAuthPaths.logoutUnderAuth, (c) => logout(c, c.req.queries(), false));
  const confirmLogout = async (c: Context) => {
    // The confirmation form posts from our own page; a cross-site post is not a confirmation.
    if (c.req.header('origin') !== config.publicOrigin) return messagePage(c, { title: 'Sign-out refused', message: 'This sign-out did not come from the Gatehouse sign-out page.' }, 403);
    const type = c.req.header('content-type') ?? '';
    const form = type.startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(await c.req.text()) : new URLSearchParams();
    return logout(c, paramsOf(form), true);
  };
  app.post(OAuthPaths.logout, confirmLogout);
  app.post(OAuthPaths.logoutUnderAuth, confirmLogout);

  // The hosted pages: the login box full page on the hosted routes, and the hosted admin portal.
  const hosted = (portal: boolean) => async (c: Context) => {
    const { html, csp } = renderHostedPage(config, await liveLoader(deps.cdn), portal);
    return c.html(html, 200, { 'Content-Security-Policy': csp, 'Cache-Control': 'no-store', 'Referrer-Policy': 'strict-origin-when-cross-origin' });
  };
  app.get(`${OAuthPaths.portal}`, hosted(true));
  app.get('/oauth/account/*', hosted(false));

  return app;
}
