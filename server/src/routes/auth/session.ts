import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiPaths, LoginRequest, LoginResponse, RefreshRequest } from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from '../../http/cookies';
import type { AppEnv } from '../../http/env';
import { readMfaRememberCookie } from '../../http/mfa-cookie';
import { rateLimitedResponse, validationHook, zodMessages } from '../../http/errors';
import { clientIp, emailLinkBase, requireAllowedOrigin } from '../../http/middleware';
import { Errors, isAppError } from '../../errors';
import { requireLocalLogin } from '../../services/auth/login-policy';
import type { RouteDeps } from '../deps';
import { captchaUnavailableResponse, checkCaptcha } from '../platform/captcha-policy';
import { json, err } from '../openapi';

/** Login, refresh and logout: the calls that own the refresh cookie. */
export function sessionRoutes(deps: RouteDeps): OpenAPIHono<AppEnv> {
  const { auth, config } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const originGuard = requireAllowedOrigin(config);

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.login,
      tags: ['auth'],
      summary: 'Sign in with email (or username) and password',
      middleware: [originGuard] as const,
      request: { body: { required: true, content: { 'application/json': { schema: LoginRequest } } } },
      responses: {
        200: json(LoginResponse, 'Signed in; the refresh token is set as an httpOnly cookie'),
        400: err('Invalid body, user not verified, or (captcha policy set) a missing or refused recaptchaToken'),
        401: err('Invalid email or password'),
        403: err('Local sign-in is turned off (NoLocalAuthentication), or the account is locked (lockout policy)'),
        429: rateLimitedResponse,
        503: captchaUnavailableResponse,
      },
    }),
    async (c) => {
      requireLocalLogin(config.loginStrategy);
      const body = c.req.valid('json');
      // Before any credential is looked at, so a refused token never counts as a failed password.
      await checkCaptcha(c, deps, 'login', body);
      // The unlock email links back to the asking page (or the hosted pages) when it is one of ours.
      const appUrl = emailLinkBase(c, config);
      const issued = await auth.login(body, { ...c.get('client'), mfaRememberToken: readMfaRememberCookie(c, config), appUrl });
      // MFA pending (mfaRequired): no session yet, so no refresh cookie until mfa/verify succeeds.
      if (issued.refreshToken) setRefreshCookie(c, config, issued.refreshToken);
      return c.json(issued.response, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.refresh,
      tags: ['auth'],
      summary: 'Rotate the refresh cookie and get a new access token; body may carry tenantId to switch tenant',
      middleware: [originGuard] as const,
      responses: {
        200: json(LoginResponse, 'New access token; a new refresh cookie replaces the old one'),
        401: err('No, expired, revoked or reused refresh token'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => {
      const body = await optionalJson(c, RefreshRequest);
      try {
        const issued = await auth.refresh(readRefreshCookie(c, config), body.tenantId, c.get('client'));
        setRefreshCookie(c, config, issued.refreshToken);
        return c.json(issued.response, 200);
      } catch (e) {
        // A dead session's cookie is useless; drop it so the browser stops sending it.
        if (isAppError(e) && e.status === 401) clearRefreshCookie(c, config);
        throw e;
      }
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.logout,
      tags: ['auth'],
      summary: 'Revoke the session and clear the refresh cookie',
      middleware: [originGuard] as const,
      responses: { 200: json(z.object({}), 'Signed out (also when there was no session)') },
    }),
    async (c) => {
      await auth.logout(readRefreshCookie(c, config), c.get('client'));
      clearRefreshCookie(c, config);
      return c.json({}, 200);
    },
  );

  return app;
}

/**
 * Refresh and logout are sent with an empty body by browsers, with or without a JSON content
 * type, so the body is parsed leniently here instead of by the route validator.
 */
async function optionalJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const text = await c.req.text();
  if (!text.trim()) return schema.parse({});
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw Errors.validation('Malformed JSON in request body');
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw Errors.validation(zodMessages(result.error).join(', '));
  return result.data;
}
