import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiPaths, LoginResponse, PasswordlessPostLoginRequest, PasswordlessPreLoginRequest, PasswordlessTypeParam } from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import { setRefreshCookie } from '../../http/cookies';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { readMfaRememberCookie } from '../../http/mfa-cookie';
import { clientIp, requireAllowedOrigin, emailLinkBase } from '../../http/middleware';
import type { PasswordlessService } from '../../services/passwordless';
import type { RouteDeps } from '../deps';
import { json, err, body } from '../openapi';

/** Passwordless sign-in: `passwordless/{type}/prelogin` sends a link or code, `postlogin` signs in with it. */
export function passwordlessRoutes(deps: RouteDeps, passwordless: PasswordlessService): OpenAPIHono<AppEnv> {
  const { config } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const originGuard = requireAllowedOrigin(config);
  const client = (c: Context) => ({ userAgent: c.req.header('user-agent') ?? null, ip: clientIp(c, config), mfaRememberToken: readMfaRememberCookie(c, config) });

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.passwordlessPreLogin,
      tags: ['auth'],
      summary: 'Email a magic link (type magiclink) or a 6-digit code (type code) to the account of an email or username',
      middleware: [originGuard] as const,
      request: { params: PasswordlessTypeParam, ...body(PasswordlessPreLoginRequest) },
      responses: {
        200: json(z.object({}), 'Accepted: the same answer whether or not the account exists'),
        400: err('Invalid body, or this type is not the login policy'),
        403: err('Local sign-in is turned off (NoLocalAuthentication)'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => {
      await passwordless.preLogin(c.req.valid('param').type, c.req.valid('json'), emailLinkBase(c, config), client(c));
      return c.json({}, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.passwordlessPostLogin,
      tags: ['auth'],
      summary: 'Sign in with a magic link token, or with the identifier and its emailed code',
      middleware: [originGuard] as const,
      request: { params: PasswordlessTypeParam, ...body(PasswordlessPostLoginRequest) },
      responses: {
        200: json(LoginResponse, 'Signed in (refresh cookie set), or mfaRequired with an mfaToken and no session yet'),
        400: err('Invalid, expired, used or exhausted link or code'),
        403: err('Local sign-in is turned off (NoLocalAuthentication)'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => {
      const issued = await passwordless.postLogin(c.req.valid('param').type, c.req.valid('json'), client(c));
      // MFA pending: no session yet, so no refresh cookie until mfa/verify succeeds.
      if (issued.refreshToken) setRefreshCookie(c, config, issued.refreshToken);
      return c.json(issued.response, 200);
    },
  );

  return app;
}
