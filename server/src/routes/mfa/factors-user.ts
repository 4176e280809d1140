import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  MfaFactorPaths, MfaStrategiesConfigResponse, RecoveryCodesResponse, SmsCodeSentResponse, SmsDisableVerifyRequest, SmsEnrollRequest, SmsEnrollVerifyRequest,
  WebAuthnChallengeResponse, WebAuthnCreationResponse, WebAuthnDisableVerifyRequest, WebAuthnEnrollRequest, WebAuthnEnrollVerifyRequest, type MfaStrategy,
} from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { requireAuth } from '../../http/middleware';
import type { MfaSmsService } from '../../services/mfa/sms';
import { mfaStrategiesConfig } from '../../services/mfa/strategies';
import type { MfaWebauthnService } from '../../services/mfa/webauthn';
import type { RouteDeps } from '../deps';
import { json, err, body } from '../openapi';

const unauthorized = err('Missing, invalid or expired access token');
const fresh = err('Needs a recent sign-in (or a recent step-up when the account has a second factor), or the method is turned off');
const deviceParam = z.object({ deviceId: z.string().min(1).max(64) });

/**
 * The signed-in user's SMS and WebAuthn second factors (seed 000 section 7.3: enroll and verify,
 * disable, sms and webauthn variants) and the MFA strategies config.
 */
export function mfaFactorUserRoutes(deps: RouteDeps, sms: MfaSmsService, webauthn: MfaWebauthnService, active: ReadonlySet<MfaStrategy>): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const authed = requireAuth(deps.auth);
  const post = { method: 'post' as const, tags: ['mfa'], security: [{ Bearer: [] }], middleware: [authed] };

  app.openapi(
    createRoute({ method: 'get', path: MfaFactorPaths.strategiesConfig, tags: ['mfa'], summary: 'MFA strategies config: which MFA methods are on', responses: { 200: json(MfaStrategiesConfigResponse, 'Every MFA method and whether it is active') } }),
    (c) => c.json({ strategies: mfaStrategiesConfig(active) }, 200),
  );

  app.openapi(
    createRoute({ ...post, path: MfaFactorPaths.smsEnroll, summary: 'Start SMS enrolment: a code is texted to the number', request: body(SmsEnrollRequest), responses: { 200: json(SmsCodeSentResponse, 'Code sent; the number is masked'), 400: err('Invalid phone number'), 401: unauthorized, 403: fresh, 409: err('A phone is already enrolled'), 429: rateLimitedResponse, 502: err('The SMS provider failed') } }),
    async (c) => c.json(await sms.enroll(c.get('auth'), c.req.valid('json').phoneNumber), 200),
  );

  app.openapi(
    createRoute({ ...post, path: MfaFactorPaths.smsEnrollVerify, summary: 'Confirm SMS enrolment with the texted code', request: body(SmsEnrollVerifyRequest), responses: { 200: json(RecoveryCodesResponse, 'Enrolled; recovery codes with the first factor only'), 400: err('Wrong, expired or used code'), 401: unauthorized, 403: fresh, 429: rateLimitedResponse } }),
    async (c) => {
      const { otcToken, token } = c.req.valid('json');
      return c.json(await sms.verifyEnrollment(c.get('auth'), otcToken, token), 200);
    },
  );

  app.openapi(
    createRoute({ ...post, path: MfaFactorPaths.smsDisable, summary: 'Start removing a phone: a code is texted to it (needs a recent sign-in)', request: { params: deviceParam }, responses: { 200: json(SmsCodeSentResponse, 'Code sent'), 401: unauthorized, 403: fresh, 404: err('No such phone of yours'), 429: rateLimitedResponse, 502: err('The SMS provider failed') } }),
    async (c) => c.json(await sms.startDisable(c.get('auth'), c.req.valid('param').deviceId), 200),
  );

  app.openapi(
    createRoute({
      ...post, path: MfaFactorPaths.smsDisableVerify, summary: 'Remove the phone with the code texted to it (the last factor takes recovery codes with it)', request: { params: deviceParam, ...body(SmsDisableVerifyRequest) },
      responses: { 200: json(z.object({}), 'Removed'), 400: err('Wrong, expired or used code'), 401: unauthorized, 403: fresh, 404: err('No such phone of yours'), 429: rateLimitedResponse },
    }),
    async (c) => {
      const { otcToken, code } = c.req.valid('json');
      await sms.disable(c.get('auth'), c.req.valid('param').deviceId, otcToken, code);
      return c.json({}, 200);
    },
  );

  app.openapi(
    createRoute({ ...post, path: MfaFactorPaths.webauthnEnroll, summary: 'Start WebAuthn enrolment: creation options for deviceType platform or cross-platform', request: body(WebAuthnEnrollRequest), responses: { 200: json(WebAuthnCreationResponse, 'Options for navigator.credentials.create()'), 401: unauthorized, 403: fresh } }),
    async (c) => c.json({ options: await webauthn.enrollOptions(c.get('auth'), c.req.valid('json').deviceType) }, 200),
  );

  app.openapi(
    createRoute({ ...post, path: MfaFactorPaths.webauthnEnrollVerify, summary: 'Finish WebAuthn enrolment: verify the attestation and store the key', request: body(WebAuthnEnrollVerifyRequest), responses: { 200: json(RecoveryCodesResponse, 'Enrolled; recovery codes with the first factor only'), 400: err('Invalid challenge or attestation'), 401: unauthorized, 403: fresh, 409: err('Already enrolled') } }),
    async (c) => {
      const { credential, name } = c.req.valid('json');
      return c.json(await webauthn.verifyEnrollment(c.get('auth'), credential, name), 200);
    },
  );

  app.openapi(
    createRoute({ ...post, path: MfaFactorPaths.webauthnDisable, summary: 'Start removing a security key: request options for that key (needs a recent sign-in)', request: { params: deviceParam }, responses: { 200: json(WebAuthnChallengeResponse, 'Options for navigator.credentials.get()'), 401: unauthorized, 403: fresh, 404: err('No such key of yours') } }),
    async (c) => c.json({ options: await webauthn.disableOptions(c.get('auth'), c.req.valid('param').deviceId) }, 200),
  );

  app.openapi(
    createRoute({
      ...post, path: MfaFactorPaths.webauthnDisableVerify, summary: 'Remove the security key with an assertion by it (the last factor takes recovery codes with it)', request: { params: deviceParam, ...body(WebAuthnDisableVerifyRequest) },
      responses: { 200: json(z.object({}), 'Removed'), 400: err('Invalid challenge or assertion'), 401: unauthorized, 403: fresh, 404: err('No such key of yours'), 429: rateLimitedResponse },
    }),
    async (c) => {
      await webauthn.disable(c.get('auth'), c.req.valid('param').deviceId, c.req.valid('json').credential);
      return c.json({}, 200);
    },
  );

  return app;
}
