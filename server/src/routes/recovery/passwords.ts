import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  ApiPaths,
  ChangePasswordRequest,
  PasswordRecoveryStrategiesResponse,
  ResetPasswordRequest,
  ResetPasswordSmsResponse,
  ResetPasswordSmsVerifyRequest,
  ResetPasswordSmsVerifyResponse,
  ResetPasswordV2Request,
  ResetPasswordVerifyRequest,
  ResetPasswordVerifyResponse,
} from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { requireAllowedOrigin, requireAuth, emailLinkBase } from '../../http/middleware';
import { setRefreshCookie } from '../../http/cookies';
import { readMfaRememberCookie } from '../../http/mfa-cookie';
import type { RecoveryService } from '../../services/recovery/recovery';
import type { RouteDeps } from '../deps';
import { captchaUnavailableResponse, checkCaptcha } from '../platform/captcha-policy';
import { json, err, body } from '../openapi';

const accepted = json(z.object({}), 'Accepted: the same answer whether or not the account exists');
const invalidBody = err('Invalid body, or (captcha policy set) a missing or refused recaptchaToken');
/** The v2 identifier counts as the call's email (for the captcha's ignored emails) only when it is one. */
const emailOf = (b: { identifier: string; identifierType?: string }) => (b.identifierType === undefined || b.identifierType === 'email' ? b.identifier : null);

/** Forgot/reset password by email and SMS, recovery strategies, and the signed-in password change. */
export function passwordRoutes(deps: RouteDeps, recovery: RecoveryService): OpenAPIHono<AppEnv> {
  const { config, auth } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  // The reset now sets the refresh cookie, so it is refused from other origins like sign-in is.
  const originGuard = requireAllowedOrigin(config);
  const ip = (c: Context<AppEnv>) => c.get('client');

  app.openapi(
    createRoute({ method: 'get', path: ApiPaths.passwordRecoveryStrategies, tags: ['passwords'], responses: { 200: json(PasswordRecoveryStrategiesResponse, 'Which recovery channels are active') } }),
    (c) => c.json(recovery.strategies(), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.passwordsReset,
      tags: ['passwords'],
      summary: 'Email a password-reset link (v1, by email)',
      request: body(ResetPasswordRequest),
      responses: { 200: accepted, 400: invalidBody, 429: rateLimitedResponse, 503: captchaUnavailableResponse },
    }),
    async (c) => {
      await checkCaptcha(c, deps, 'forgot_password', c.req.valid('json'));
      await recovery.requestEmailReset(c.req.valid('json').email, 'email', emailLinkBase(c, config), ip(c));
      return c.json({}, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.passwordsResetEmailV2,
      tags: ['passwords'],
      summary: 'Email a password-reset link (v2, by email, username or phone number)',
      request: body(ResetPasswordV2Request),
      responses: { 200: accepted, 400: invalidBody, 429: rateLimitedResponse, 503: captchaUnavailableResponse },
    }),
    async (c) => {
      const { identifier, identifierType, recaptchaToken } = c.req.valid('json');
      await checkCaptcha(c, deps, 'forgot_password', { recaptchaToken, email: emailOf({ identifier, identifierType }) });
      await recovery.requestEmailReset(identifier, identifierType, emailLinkBase(c, config), ip(c));
      return c.json({}, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.passwordsResetSmsV2,
      tags: ['passwords'],
      summary: "Text a reset code to the account's phone; a session id comes back for any identifier",
      request: body(ResetPasswordV2Request),
      responses: { 200: json(ResetPasswordSmsResponse, 'Accepted; verify the code with this session id'), 400: invalidBody, 429: rateLimitedResponse, 503: captchaUnavailableResponse },
    }),
    async (c) => {
      const { identifier, identifierType, recaptchaToken } = c.req.valid('json');
      await checkCaptcha(c, deps, 'forgot_password', { recaptchaToken, email: emailOf({ identifier, identifierType }) });
      return c.json(await recovery.requestSmsReset(identifier, identifierType, ip(c)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.passwordsResetSmsVerifyV2,
      tags: ['passwords'],
      summary: 'Exchange the SMS code for a reset token (single use, attempts limited)',
      request: body(ResetPasswordSmsVerifyRequest),
      responses: { 200: json(ResetPasswordSmsVerifyResponse, 'userId and token for passwords/reset/verify'), 400: err('Wrong, expired or used code'), 429: rateLimitedResponse },
    }),
    async (c) => {
      const { sessionId, otcToken } = c.req.valid('json');
      return c.json(await recovery.verifySmsCode(sessionId, otcToken, ip(c)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.passwordsResetVerify,
      tags: ['passwords'],
      summary: 'Set a new password with a reset token; every other session of the user is revoked, and the user is signed in as a login would (MFA first when enrolled or enforced)',
      middleware: [originGuard] as const,
      request: body(ResetPasswordVerifyRequest),
      responses: {
        200: json(ResetPasswordVerifyResponse, 'Password changed. Signed in (accessToken, refresh cookie set), or mfaRequired with an mfaToken, or {} when the login policy allows no local sign-in'),
        400: err('Invalid or expired link, or password policy'),
        403: err('Origin not allowed'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => {
      const issued = await recovery.resetPassword(c.req.valid('json'), { ...c.get('client'), mfaRememberToken: readMfaRememberCookie(c, config) });
      if (!issued) return c.json({}, 200);
      // MFA pending (mfaRequired): no session yet, so no refresh cookie until mfa/verify succeeds.
      if (issued.refreshToken) setRefreshCookie(c, config, issued.refreshToken);
      return c.json(issued.response, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.passwordsChange,
      tags: ['passwords'],
      summary: "Change the signed-in user's password; other sessions are revoked, this one stays",
      security: [{ Bearer: [] }],
      middleware: [requireAuth(auth)] as const,
      request: body(ChangePasswordRequest),
      responses: {
        200: json(z.object({}), 'Password changed'),
        400: err('Wrong current password or password policy'),
        401: err('Not signed in'),
        403: err('The account has a second factor and the session has no recent step-up (ER-01307, errorContext.maxAge), or an impersonation session (ER-01108)'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => {
      await recovery.changePassword(c.get('auth'), c.req.valid('json'));
      return c.json({}, 200);
    },
  );

  return app;
}
