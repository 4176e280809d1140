import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import {
  ApiPaths, AuthenticatorEnrollResponse, LoginAuthenticatorEnrollRequest, LoginAuthenticatorEnrollVerifyRequest, LoginEnrollResponse, LoginResponse,
  MfaEmailCodePreVerifyRequest, MfaEmailCodePreVerifyResponse, MfaEmailCodeVerifyRequest, MfaRecoverRequest, MfaRememberDeviceRequest, MfaRememberDeviceResponse, MfaVerifyRequest,
  StepUpGenerateResponse,
} from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import { setRefreshCookie } from '../../http/cookies';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { setMfaRememberCookie } from '../../http/mfa-cookie';
import { clientIp, requireAllowedOrigin, requireAuth } from '../../http/middleware';
import type { ClientInfo } from '../../services/auth/auth';
import type { MfaCompletion, MfaService } from '../../services/mfa/mfa';
import type { RouteDeps } from '../deps';
import { json, err, body } from '../openapi';

const codeErrors = { 400: err('Invalid body or wrong code'), 401: err('mfaToken unknown, expired or already used'), 429: rateLimitedResponse };

/** The second step of a sign-in (mfaToken -> session) and step-up of a running session. */
export function mfaAuthRoutes(deps: RouteDeps, mfa: MfaService): OpenAPIHono<AppEnv> {
  const { auth, config } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const originGuard = requireAllowedOrigin(config);
  const client = (c: Context<AppEnv>): ClientInfo => ({ ...c.get('client') });
  /** Cookies only now: the refresh cookie once the second factor is proven, the device cookie if asked for. */
  const finish = (c: Context, done: MfaCompletion) => {
    if (done.refreshToken) setRefreshCookie(c, config, done.refreshToken);
    if (done.rememberDevice) setMfaRememberCookie(c, config, done.rememberDevice.token, done.rememberDevice.maxAgeSeconds);
  };

  app.openapi(
    createRoute({
      method: 'post', path: ApiPaths.mfaVerify, tags: ['mfa'], summary: 'Finish a sign-in or step-up with an authenticator-app code', middleware: [originGuard] as const,
      request: body(MfaVerifyRequest), responses: { 200: json(LoginResponse, 'Signed in (refresh cookie set) or session stepped up'), ...codeErrors },
    }),
    async (c) => {
      const done = await mfa.verifyTotp(c.req.valid('json'), client(c));
      finish(c, done);
      return c.json(done.response, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post', path: ApiPaths.mfaRecover, tags: ['mfa'], summary: 'recoverMfaToken: finish a sign-in with a one-time recovery code', middleware: [originGuard] as const,
      request: body(MfaRecoverRequest), responses: { 200: json(LoginResponse, 'Signed in; the recovery code is spent'), ...codeErrors },
    }),
    async (c) => {
      const done = await mfa.recover(c.req.valid('json'), client(c));
      finish(c, done);
      return c.json(done.response, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post', path: ApiPaths.mfaEmailCodePreVerify, tags: ['mfa'], summary: 'EmailCode pre-verify: email a code for this mfaToken', middleware: [originGuard] as const,
      request: body(MfaEmailCodePreVerifyRequest), responses: { 200: json(MfaEmailCodePreVerifyResponse, 'Code sent'), ...codeErrors },
    }),
    async (c) => c.json(await mfa.sendEmailCode(c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post', path: ApiPaths.mfaEmailCodeVerify, tags: ['mfa'], summary: 'EmailCode verify: finish a sign-in or step-up with the emailed code', middleware: [originGuard] as const,
      request: body(MfaEmailCodeVerifyRequest), responses: { 200: json(LoginResponse, 'Signed in or stepped up'), ...codeErrors },
    }),
    async (c) => {
      const done = await mfa.verifyEmailCode(c.req.valid('json'), client(c));
      finish(c, done);
      return c.json(done.response, 200);
    },
  );

  app.openapi(
    createRoute({
      // POST with the mfaToken in the body: a token in a URL leaks into logs, history and Referer.
      method: 'post', path: ApiPaths.mfaRememberDevice, tags: ['mfa'], summary: 'checkIfAllowToRememberMfaDevice', middleware: [originGuard] as const,
      request: body(MfaRememberDeviceRequest), responses: { 200: json(MfaRememberDeviceResponse, 'Whether and how long this device may be remembered'), ...codeErrors },
    }),
    async (c) => c.json(await mfa.rememberDeviceInfo(c.req.valid('json').mfaToken), 200),
  );

  app.openapi(
    createRoute({
      method: 'post', path: ApiPaths.mfaLoginAuthenticatorEnroll, tags: ['mfa'], summary: 'forceTwoFactor: start authenticator enrolment with the sign-in mfaToken', middleware: [originGuard] as const,
      request: body(LoginAuthenticatorEnrollRequest), responses: { 200: json(AuthenticatorEnrollResponse, 'QR code, otpauth URI and secret'), ...codeErrors },
    }),
    async (c) => c.json(await mfa.loginEnrollAuthenticator(c.req.valid('json').mfaToken), 200),
  );

  app.openapi(
    createRoute({
      method: 'post', path: ApiPaths.mfaLoginAuthenticatorEnrollVerify, tags: ['mfa'], summary: 'forceTwoFactor: confirm the first code; ends signed in with recovery codes', middleware: [originGuard] as const,
      request: body(LoginAuthenticatorEnrollVerifyRequest), responses: { 200: json(LoginEnrollResponse, 'Signed in; recovery codes shown once'), ...codeErrors },
    }),
    async (c) => {
      const done = await mfa.loginVerifyAuthenticator(c.req.valid('json'), client(c));
      finish(c, done);
      return c.json(done.response, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post', path: ApiPaths.stepUpGenerate, tags: ['mfa'], summary: "Step-up: an mfaToken for the caller's own session", security: [{ Bearer: [] }],
      middleware: [requireAuth(auth)] as const,
      responses: { 200: json(StepUpGenerateResponse, 'mfaToken and the factors to use'), 400: err('MFA is not enrolled (noMFAEnrolledStepUp)'), 401: err('Not signed in') },
    }),
    async (c) => c.json(await mfa.stepUpGenerate(c.get('auth')), 200),
  );

  return app;
}
