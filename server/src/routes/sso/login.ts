import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { LoginResponse, OidcPostLoginRequest, SamlPostLoginRequest, SsoPaths, SsoPreLoginRequest, SsoPreLoginResponse, SsoStartRequest, SsoStartResponse, SsoTestCompleteResponse, type SsoType } from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { Config } from '../../config';
import { sameSite, setRefreshCookie } from '../../http/cookies';
import type { AppEnv } from '../../http/env';
import { ErrorBodySchema, rateLimitedResponse, validationHook } from '../../http/errors';
import { readMfaRememberCookie } from '../../http/mfa-cookie';
import { clientIp, requestLocale, requireAllowedOrigin } from '../../http/middleware';
import type { IssuedSession } from '../../services/auth/auth';
import type { SsoConnectionTestService } from '../../services/sso/connection-test';
import { SSO_REQUEST_TTL_MS, ssoFailed, type SsoLoginService } from '../../services/sso/login';
import { renderMessagePage } from '../oauth/pages';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { testPageCopy } from './test-page-copy';

type CookieConfig = Pick<Config, 'clientId' | 'cookieSameSite' | 'cookieSecure'>;

/** The httpOnly cookie binding started SSO sign-ins to their browser; sent only to the user/* auth calls. */
export function ssoCookieName(clientId: string): string {
  return `gatehouse-sso-${clientId.replace(/-/g, '')}`;
}
const SSO_COOKIE_PATH = '/identity/resources/auth/v1/user';

const ConfigIdParam = z.object({ configId: z.string().min(1).max(64) });
/** What the IdP posts to the ACS (HTTP-POST binding). */
const AcsForm = z.object({ SAMLResponse: z.string().max(1024 * 1024).optional(), RelayState: z.string().max(1024).optional() });

/**
 * Enterprise SSO sign-in: preLogin's lookup, starting a SAML or OIDC sign-in, the SAML ACS and SP
 * metadata, and the postlogin calls of the login box's samlCallbackUrl and oidcRedirectUrl routes.
 */
export function ssoLoginRoutes(deps: RouteDeps, sso: SsoLoginService, tests: Pick<SsoConnectionTestService, 'isTest' | 'answer' | 'isOidcTest' | 'answerOidc'>): OpenAPIHono<AppEnv> {
  const { config } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const originGuard = requireAllowedOrigin(config);
  const client = (c: Context) => ({ userAgent: c.req.header('user-agent') ?? null, ip: clientIp(c, config), mfaRememberToken: readMfaRememberCookie(c, config) });
  const binding = (c: Context) => getCookie(c, ssoCookieName(config.clientId)) || undefined;

  app.openapi(
    createRoute({
      method: 'post',
      path: SsoPaths.preLogin,
      tags: ['sso'],
      summary: "preLogin's SSO lookup (seed 000 section 4.2): is there enabled SSO for the email's validated domain?",
      middleware: [originGuard] as const,
      request: body(SsoPreLoginRequest),
      responses: {
        200: json(SsoPreLoginResponse, "SSO applies: the IdP's address and the protocol, and the login box shows redirectToSSO; or both null: no SSO for this identifier, go on to the password step"),
        400: err('Invalid body'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => c.json(await sso.lookup(c.req.valid('json'), client(c)), 200),
  );

  /** Starts a sign-in and sets (or refreshes) the binding cookie; answers the IdP address. */
  async function start(c: Context<AppEnv>, type: SsoType, input: SsoStartRequest): Promise<string> {
    const started = await sso.start(type, input, binding(c), client(c));
    setCookie(c, ssoCookieName(config.clientId), started.binding, { ...cookieOptions(config), maxAge: SSO_REQUEST_TTL_MS / 1000 });
    return started.address;
  }
  const startResponses = {
    200: json(SsoStartResponse, 'The IdP address to send the browser to; the binding cookie is set'),
    400: err('Invalid body, or redirectUri is not a page of an allowed origin'),
    404: err('No SSO of this protocol for the email'),
    429: rateLimitedResponse,
    502: err('The identity provider could not be reached'),
  };

  app.openapi(
    createRoute({
      method: 'post',
      path: SsoPaths.samlPreLogin,
      tags: ['sso'],
      summary: "Starts a SAML sign-in: a new AuthnRequest (HTTP-Redirect binding, signed when the configuration says so), bound to this browser by an httpOnly cookie",
      middleware: [originGuard] as const,
      request: body(SsoStartRequest),
      responses: startResponses,
    }),
    async (c) => c.json({ address: await start(c, 'saml', c.req.valid('json')) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SsoPaths.oidcPreLogin,
      tags: ['sso'],
      summary: 'Starts an OIDC sign-in: state, nonce and PKCE verifier kept server-side, bound to this browser by an httpOnly cookie; answers with the authorization URL',
      middleware: [originGuard] as const,
      request: body(SsoStartRequest),
      responses: startResponses,
    }),
    async (c) => c.json({ address: await start(c, 'oidc', c.req.valid('json')) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SsoPaths.samlAcs,
      tags: ['sso'],
      summary: "The SAML Assertion Consumer Service (HTTP-POST binding): checks the IdP's response and sends the browser to the login box's samlCallbackUrl with a one-time code",
      request: { params: ConfigIdParam, body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: AcsForm } } } },
      responses: {
        200: { description: "A connection test's answer (RelayState names a test an admin started): checked as a sign-in, reported to the admin portal, nobody signed in; a page saying the window can be closed", content: { 'text/html': { schema: z.string() } } },
        303: { description: 'To the samlCallbackUrl of the sign-in: `?code=` when accepted, `?error=sso_failed` when refused' },
        400: {
          description: 'No SAMLResponse (JSON), or a connection test already answered or expired (a page)',
          content: { 'application/json': { schema: ErrorBodySchema }, 'text/html': { schema: z.string() } },
        },
        401: err("'Failed to authenticate': refused, and it answers no pending sign-in of ours"),
        429: rateLimitedResponse,
      },
    }),
    async (c) => {
      const { configId } = c.req.valid('param');
      const form = c.req.valid('form');
      if (await tests.isTest(configId, form.RelayState)) {
        // A test signs nobody in: no cookie, no code, only a page; the report waits for the portal.
        const recorded = (await tests.answer(configId, form, client(c))) === 'recorded';
        // In the admin's language (the browser's Accept-Language), English when none is spoken here.
        const copy = testPageCopy(requestLocale(c));
        const { html, csp } = renderMessagePage(
          { title: recorded ? copy.completeTitle : copy.invalidTitle, message: recorded ? copy.complete : copy.invalid, lang: copy.lang, dir: copy.dir },
          !recorded,
        );
        return c.html(html, recorded ? 200 : 400, { 'Content-Security-Policy': csp, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
      }
      return c.redirect((await sso.acs(configId, form, client(c))).redirect, 303);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: SsoPaths.samlMetadata,
      tags: ['sso'],
      summary: "Our SAML service provider metadata for one configuration (its URL is also the SP entity id): import it at the IdP",
      request: { params: ConfigIdParam },
      responses: { 200: { description: 'SAML metadata XML', content: { 'application/samlmetadata+xml': { schema: z.string() } } }, 404: err('No SAML configuration with this id') },
    }),
    async (c) => c.body(await sso.spMetadata(c.req.valid('param').configId), 200, { 'content-type': 'application/samlmetadata+xml; charset=utf-8', 'cache-control': 'no-cache' }),
  );

  const postLoginResponses = {
    200: json(LoginResponse, 'Signed in (refresh cookie set), or mfaRequired with an mfaToken and no session yet'),
    400: err('Invalid body'),
    401: err("'Failed to authenticate': unknown, used or expired sign-in, another browser, or the IdP's answer was refused"),
    429: rateLimitedResponse,
  };
  const answer = (c: Context, issued: IssuedSession) => {
    // MFA pending: no session yet, so no refresh cookie until mfa/verify succeeds.
    if (issued.refreshToken) setRefreshCookie(c, config, issued.refreshToken);
    return issued.response;
  };

  app.openapi(
    createRoute({
      method: 'post',
      path: SsoPaths.samlPostLogin,
      tags: ['sso'],
      summary: "Finishes a SAML sign-in on the samlCallbackUrl route with the ACS's one-time code (from the browser that started it)",
      middleware: [originGuard] as const,
      request: body(SamlPostLoginRequest),
      responses: postLoginResponses,
    }),
    async (c) => c.json(answer(c, await sso.samlPostLogin(c.req.valid('json').code, binding(c), client(c))), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SsoPaths.oidcPostLogin,
      tags: ['sso'],
      summary: "Finishes an OIDC sign-in on the oidcRedirectUrl route: code, redirectUri and RelayState (the state) of the IdP's answer; PKCE, state, nonce and the ID token are checked",
      middleware: [originGuard] as const,
      request: body(OidcPostLoginRequest),
      responses: {
        ...postLoginResponses,
        202: json(SsoTestCompleteResponse, "The state names a connection test an admin started: the IdP's answer was checked as a sign-in's and reported to the admin portal; nobody is signed in (no cookie, no token)"),
      },
    }),
    async (c) => {
      const input = c.req.valid('json');
      if (await tests.isOidcTest(input.RelayState)) {
        // A test signs nobody in: no cookie, no token; the report waits for the portal.
        if ((await tests.answerOidc(input, client(c))) !== 'recorded') throw ssoFailed();
        c.header('Cache-Control', 'no-store');
        return c.json({ connectionTest: 'complete' as const }, 202);
      }
      return c.json(answer(c, await sso.oidcPostLogin(input, binding(c), client(c))), 200);
    },
  );

  return app;
}

const cookieOptions = (config: CookieConfig) => ({ httpOnly: true, secure: config.cookieSecure, sameSite: sameSite(config.cookieSameSite), path: SSO_COOKIE_PATH }) as const;
