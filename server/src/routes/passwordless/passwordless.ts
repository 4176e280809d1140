import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { ApiPaths, LoginResponse, PasswordlessPostLoginRequest, PasswordlessPreLoginRequest, PasswordlessPreLoginResponse, PasswordlessTypeParam } from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import { setRefreshCookie } from '../../http/cookies';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { readMfaRememberCookie } from '../../http/mfa-cookie';
import { clientIp, requireAllowedOrigin, emailLinkBase } from '../../http/middleware';
import type { PasswordlessService } from '../../services/passwordless/passwordless';
import type { SmsLoginService } from '../../services/passwordless/sms-login';
import type { RouteDeps } from '../deps';
import { captchaUnavailableResponse, checkCaptcha } from '../platform/captcha-policy';
import { json, err, body } from '../openapi';

/** Passwordless sign-in: `passwordless/{type}/prelogin` sends a link or code (emailed or texted), `postlogin` signs in with it. */
export function passwordlessRoutes(deps: RouteDeps, passwordless: PasswordlessService, smsLogin: SmsLoginService): OpenAPIHono<AppEnv> {
  const { config } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const originGuard = requireAllowedOrigin(config);
  const client = (c: Context<AppEnv>) => ({ ...c.get('client'), mfaRememberToken: readMfaRememberCookie(c, config) });

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.passwordlessPreLogin,
      tags: ['auth'],
      summary: 'Email a magic link (type magiclink) or a 6-digit code (type code) to the account of an email or username, or text a 6-digit code (type smscode) to the verified phone number of the account of an email, username or phone number',
      middleware: [originGuard] as const,
      request: { params: PasswordlessTypeParam, ...body(PasswordlessPreLoginRequest) },
      responses: {
        200: json(PasswordlessPreLoginResponse, 'Accepted: the same answer whether or not the account exists (smscode with a typed phone number: that number, masked)'),
        400: err('Invalid body, this type is not the login policy, or (captcha policy set) a missing or refused recaptchaToken'),
        403: err('Local sign-in is turned off (NoLocalAuthentication)'),
        429: rateLimitedResponse,
        503: captchaUnavailableResponse,
      },
    }),
    async (c) => {
      await checkCaptcha(c, deps, 'passwordless_login', c.req.valid('json'));
      const { type } = c.req.valid('param');
      if (type === 'smscode') return c.json(await smsLogin.preLogin(c.req.valid('json'), client(c)), 200);
      await passwordless.preLogin(type, c.req.valid('json'), emailLinkBase(c, config), client(c));
      return c.json({}, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.passwordlessPostLogin,
      tags: ['auth'],
      summary: 'Sign in with a magic link token, or with the identifier and its emailed or texted code (smscode also finishes a phone sign-up: the number is verified and the account activated)',
      middleware: [originGuard] as const,
      request: { params: PasswordlessTypeParam, ...body(PasswordlessPostLoginRequest) },
      responses: {
        200: json(LoginResponse, 'Signed in (refresh cookie set), or mfaRequired with an mfaToken and no session yet'),
        400: err('Invalid, expired, used or exhausted link or code'),
        403: err('Local sign-in is turned off (NoLocalAuthentication)'),
        409: err('smscode finishing a phone sign-up: another account verified this phone number first'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => {
      const { type } = c.req.valid('param');
      const issued = type === 'smscode' ? await smsLogin.postLogin(c.req.valid('json'), client(c)) : await passwordless.postLogin(type, c.req.valid('json'), client(c));
      // MFA pending: no session yet, so no refresh cookie until mfa/verify succeeds.
      if (issued.refreshToken) setRefreshCookie(c, config, issued.refreshToken);
      return c.json(issued.response, 200);
    },
  );

  return app;
}
