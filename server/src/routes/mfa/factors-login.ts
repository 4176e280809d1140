import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import {
  LoginEnrollResponse, LoginResponse, LoginSmsEnrollRequest, LoginSmsEnrollVerifyRequest, LoginWebAuthnEnrollRequest, LoginWebAuthnEnrollVerifyRequest, MfaFactorPaths,
  MfaSmsPreVerifyRequest, MfaSmsVerifyRequest, MfaWebAuthnPreVerifyRequest, MfaWebAuthnVerifyRequest, SmsCodeSentResponse, WebAuthnChallengeResponse, WebAuthnCreationResponse,
} from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import { setRefreshCookie } from '../../http/cookies';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { setMfaRememberCookie } from '../../http/mfa-cookie';
import { clientIp, requireAllowedOrigin } from '../../http/middleware';
import type { ClientInfo } from '../../services/auth/auth';
import type { MfaCompletion } from '../../services/mfa/mfa';
import type { MfaSmsService } from '../../services/mfa/sms';
import type { MfaWebauthnService } from '../../services/mfa/webauthn';
import type { RouteDeps } from '../deps';
import { json, err, body } from '../openapi';

const tokenErrors = {
  400: err('Invalid body, wrong code or failed security-key verification'),
  401: err('mfaToken unknown, expired or already used'),
  403: err('This two-factor method is turned off'),
  429: rateLimitedResponse,
};

/**
 * SMS and WebAuthn second factors with the mfaToken of a sign-in or step-up (seed 000 section 7.2):
 * pre-verify (text a code, or a challenge) then verify; and enrolment at sign-in (forceTwoFactor).
 */
export function mfaFactorAuthRoutes(deps: RouteDeps, sms: MfaSmsService, webauthn: MfaWebauthnService): OpenAPIHono<AppEnv> {
  const { config } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const originGuard = requireAllowedOrigin(config);
  const client = (c: Context<AppEnv>): ClientInfo => ({ ...c.get('client') });
  /** Cookies only now: the refresh cookie once the second factor is proven, the device cookie if asked for. */
  const finish = (c: Context, done: MfaCompletion) => {
    if (done.refreshToken) setRefreshCookie(c, config, done.refreshToken);
    if (done.rememberDevice) setMfaRememberCookie(c, config, done.rememberDevice.token, done.rememberDevice.maxAgeSeconds);
  };
  const post = { method: 'post' as const, tags: ['mfa'], middleware: [originGuard] };

  app.openapi(
    createRoute({ ...post, path: MfaFactorPaths.smsPreVerify, summary: "SMS pre-verify: text a code to the user's phone for this mfaToken", request: body(MfaSmsPreVerifyRequest), responses: { 200: json(SmsCodeSentResponse, 'Code sent; the number is masked'), 404: err('No such phone of this user'), 502: err('The SMS provider failed'), ...tokenErrors } }),
    async (c) => c.json(await sms.sendLoginCode(c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({ ...post, path: MfaFactorPaths.smsVerify, summary: 'SMS verify: finish a sign-in or step-up with the texted code (amr sms)', request: body(MfaSmsVerifyRequest), responses: { 200: json(LoginResponse, 'Signed in (refresh cookie set) or stepped up'), ...tokenErrors } }),
    async (c) => {
      const done = await sms.verifyLoginCode(c.req.valid('json'), client(c));
      finish(c, done);
      return c.json(done.response, 200);
    },
  );

  app.openapi(
    createRoute({ ...post, path: MfaFactorPaths.loginSmsEnroll, summary: 'forceTwoFactor (smsSetPhoneNumber): text the first code to the number', request: body(LoginSmsEnrollRequest), responses: { 200: json(SmsCodeSentResponse, 'Code sent; the number is masked'), 502: err('The SMS provider failed'), ...tokenErrors } }),
    async (c) => c.json(await sms.loginEnroll(c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({ ...post, path: MfaFactorPaths.loginSmsEnrollVerify, summary: 'forceTwoFactor (smsVerifyCode): confirm the phone; ends signed in with recovery codes', request: body(LoginSmsEnrollVerifyRequest), responses: { 200: json(LoginEnrollResponse, 'Signed in; recovery codes shown once'), ...tokenErrors } }),
    async (c) => {
      const done = await sms.loginEnrollVerify(c.req.valid('json'), client(c));
      finish(c, done);
      return c.json(done.response, 200);
    },
  );

  app.openapi(
    createRoute({ ...post, path: MfaFactorPaths.webauthnPreVerify, summary: "WebAuthn pre-verify: request options for the user's security keys", request: body(MfaWebAuthnPreVerifyRequest), responses: { 200: json(WebAuthnChallengeResponse, 'Options for navigator.credentials.get()'), ...tokenErrors } }),
    async (c) => c.json({ options: await webauthn.loginOptions(c.req.valid('json').mfaToken) }, 200),
  );

  app.openapi(
    createRoute({ ...post, path: MfaFactorPaths.webauthnVerify, summary: 'WebAuthn verify: finish a sign-in or step-up with the assertion (amr hwk)', request: body(MfaWebAuthnVerifyRequest), responses: { 200: json(LoginResponse, 'Signed in (refresh cookie set) or stepped up'), ...tokenErrors } }),
    async (c) => {
      const done = await webauthn.verifyLogin(c.req.valid('json'), client(c));
      finish(c, done);
      return c.json(done.response, 200);
    },
  );

  app.openapi(
    createRoute({ ...post, path: MfaFactorPaths.loginWebauthnEnroll, summary: 'forceTwoFactor: creation options for a platform or cross-platform authenticator', request: body(LoginWebAuthnEnrollRequest), responses: { 200: json(WebAuthnCreationResponse, 'Options for navigator.credentials.create()'), ...tokenErrors } }),
    async (c) => c.json({ options: await webauthn.loginEnrollOptions(c.req.valid('json')) }, 200),
  );

  app.openapi(
    createRoute({
      ...post, path: MfaFactorPaths.loginWebauthnEnrollVerify, summary: 'forceTwoFactor: store the key; ends signed in with recovery codes', request: body(LoginWebAuthnEnrollVerifyRequest),
      responses: { 200: json(LoginEnrollResponse, 'Signed in; recovery codes shown once'), 409: err('This security key is already enrolled'), ...tokenErrors },
    }),
    async (c) => {
      const done = await webauthn.loginEnrollVerify(c.req.valid('json'), client(c));
      finish(c, done);
      return c.json(done.response, 200);
    },
  );

  return app;
}
