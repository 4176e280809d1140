import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  CustomSocialProvidersResponse, SOCIAL_LOGIN_COOKIE_PATH, SocialLoginPaths, SocialPostLoginRequest, SocialPostLoginResponse, SocialPreLoginRequest, SocialPreLoginResponse,
  SocialProviderParam, SocialProvidersV2Response,
} from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Config } from '../../config';
import { sameSite, setRefreshCookie } from '../../http/cookies';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { readMfaRememberCookie } from '../../http/mfa-cookie';
import { clientIp, requireAllowedOrigin } from '../../http/middleware';
import type { SocialLoginService } from '../../services/social';
import type { RouteDeps } from '../deps';
import { json, err, body } from '../openapi';

type CookieConfig = Pick<Config, 'clientId' | 'cookieSameSite' | 'cookieSecure'>;

/** The httpOnly cookie that binds a started social sign-in to its browser (sent only to the social calls). */
export function socialLoginCookieName(clientId: string): string {
  return `gatehouse-social-${clientId.replace(/-/g, '')}`;
}

const cookieOptions = (config: CookieConfig) => ({ httpOnly: true, secure: config.cookieSecure, sameSite: sameSite(config.cookieSameSite), path: SOCIAL_LOGIN_COOKIE_PATH }) as const;

/** Apple's form_post answer (response_mode=form_post). */
const FormPostAnswer = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(200).optional(),
  user: z.string().max(4096).optional(),
});

/**
 * Social login: the public list of providers (v2 and custom), starting a sign-in at a provider
 * (prelogin, GET redirects and POST answers with the URL), Apple's form_post return, and postlogin.
 */
export function socialLoginRoutes(deps: RouteDeps, social: SocialLoginService): OpenAPIHono<AppEnv> {
  const { config } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const originGuard = requireAllowedOrigin(config);
  const client = (c: Context<AppEnv>) => ({ ...c.get('client'), mfaRememberToken: readMfaRememberCookie(c, config) });

  async function start(c: Context<AppEnv>, provider: string, redirectUri: string): Promise<string> {
    const started = await social.start(provider, redirectUri, client(c));
    setCookie(c, socialLoginCookieName(config.clientId), started.binding, { ...cookieOptions(config), maxAge: config.socialLogin.stateTtl });
    return started.url;
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: SocialLoginPaths.providersV2,
      tags: ['social login'],
      summary: 'The built-in social login providers and whether each is active (never a secret)',
      responses: { 200: json(SocialProvidersV2Response, 'One entry per built-in provider') },
    }),
    (c) => c.json(social.providersV2(), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: SocialLoginPaths.customProviders,
      tags: ['social login'],
      summary: 'The custom social login providers (never a secret)',
      responses: { 200: json(CustomSocialProvidersResponse, 'The configured custom providers') },
    }),
    (c) => c.json(social.customProviders(), 200),
  );

  const preLoginResponses = {
    400: err('redirectUri is not a URL of the login box on an allowed origin (no query or fragment)'),
    404: err('The provider is not configured or is turned off'),
    429: rateLimitedResponse,
    503: err('The provider cannot be reached (its discovery document could not be read)'),
  };

  app.openapi(
    createRoute({
      method: 'post',
      path: SocialLoginPaths.preLogin,
      tags: ['social login'],
      summary: "Starts a social sign-in: state, nonce and PKCE verifier kept server-side, bound to this browser by an httpOnly cookie; answers with the provider's authorization URL",
      middleware: [originGuard] as const,
      request: { params: SocialProviderParam, ...body(SocialPreLoginRequest) },
      responses: { 200: json(SocialPreLoginResponse, 'The URL to send the browser to; the binding cookie is set'), ...preLoginResponses },
    }),
    async (c) => c.json({ url: await start(c, c.req.valid('param').provider, c.req.valid('json').redirectUri) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: SocialLoginPaths.preLogin,
      tags: ['social login'],
      summary: 'Starts a social sign-in like the POST, for a plain link: redirects the browser to the provider',
      request: { params: SocialProviderParam, query: SocialPreLoginRequest },
      responses: { 302: { description: "Redirect to the provider's authorization URL; the binding cookie is set" }, ...preLoginResponses },
    }),
    async (c) => c.redirect(await start(c, c.req.valid('param').provider, c.req.valid('query').redirectUri), 302),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SocialLoginPaths.formPostCallback,
      tags: ['social login'],
      summary: "Receives a form_post provider's answer (Apple) and sends the browser on to the login box's callback URL of that sign-in",
      request: { params: SocialProviderParam, body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: FormPostAnswer } } } },
      responses: { 303: { description: 'Redirect to the login box with code and state' }, 401: err('Unknown, used or expired state'), 404: err('The provider is not configured or is turned off') },
    }),
    async (c) => c.redirect(await social.formPostReturn(c.req.valid('param').provider, c.req.valid('form')), 303),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SocialLoginPaths.postLogin,
      tags: ['social login'],
      summary: "Finishes a social sign-in with the provider's code and state: answered like a password sign-in, plus the social login result (email, isNewUser, userId, tenantId, name)",
      middleware: [originGuard] as const,
      request: { params: SocialProviderParam, ...body(SocialPostLoginRequest) },
      responses: {
        200: json(SocialPostLoginResponse, 'Signed in (refresh cookie set), or mfaRequired with an mfaToken and no session yet'),
        400: err('Invalid body, or the provider shared no email address'),
        401: err("'Failed to authenticate': wrong, used or expired state, another browser, or the provider refused the code (PKCE, nonce, ID token)"),
        403: err('The email is not verified by the provider, sign-up by social login is off, or the user is disabled'),
        404: err('The provider is not configured or is turned off'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => {
      const name = socialLoginCookieName(config.clientId);
      const binding = getCookie(c, name) || undefined;
      // One sign-in per cookie: it is spent whatever the outcome.
      deleteCookie(c, name, cookieOptions(config));
      const issued = await social.postLogin(c.req.valid('param').provider, c.req.valid('json'), binding, client(c));
      // MFA pending: no session yet, so no refresh cookie until mfa/verify succeeds.
      if (issued.refreshToken) setRefreshCookie(c, config, issued.refreshToken);
      return c.json(issued.response, 200);
    },
  );

  return app;
}
