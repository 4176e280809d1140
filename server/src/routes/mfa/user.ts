import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  ApiPaths, AuthenticatorEnrollResponse, EmailCodeEnrollVerifyRequest, EnrollVerifyRequest, MfaDevices, MfaDisableRequest, MfaEmailCodePreVerifyResponse,
  MfaStatusResponse, RecoveryCodesResponse, SelfServicePaths,
} from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { requireAuth } from '../../http/middleware';
import type { MfaService } from '../../services/mfa/mfa';
import type { RouteDeps } from '../deps';
import { json, err, body } from '../openapi';

const unauthorized = err('Missing, invalid or expired access token');
/** Security changes need a recent sign-in (ER-01306) or, once a factor exists, a recent step-up (ER-01307); never while impersonating. */
const fresh = err('Needs a recent sign-in, or a recent step-up once a second factor is enrolled (errorContext.maxAge); or an impersonation session');

/** The signed-in user's own second factors: status, devices, enrolment and removal. */
export function mfaUserRoutes(deps: RouteDeps, mfa: MfaService): OpenAPIHono<AppEnv> {
  const { auth } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const authed = requireAuth(auth);
  const security = [{ Bearer: [] }];

  app.openapi(
    createRoute({ tags: ['mfa'], security, middleware: [authed] as const, method: 'get', path: ApiPaths.mfaStatus, summary: 'MFA status of the current user', responses: { 200: json(MfaStatusResponse, 'Enrolment, policy and devices'), 401: unauthorized } }),
    async (c) => c.json(await mfa.status(c.get('auth')), 200),
  );

  app.openapi(
    createRoute({ tags: ['mfa'], security, middleware: [authed] as const, method: 'get', path: ApiPaths.mfaDevices, summary: 'MFA devices of the current user', responses: { 200: json(MfaDevices, 'Devices by kind'), 401: unauthorized } }),
    async (c) => c.json(await mfa.devices(c.get('auth')), 200),
  );

  app.openapi(
    createRoute({
      tags: ['mfa'], security, middleware: [authed] as const, method: 'post', path: ApiPaths.mfaAuthenticatorEnroll, summary: 'Start authenticator-app enrolment',
      responses: { 200: json(AuthenticatorEnrollResponse, 'QR code (data URL), otpauth URI and base32 secret'), 401: unauthorized, 403: fresh, 409: err('Already enrolled') },
    }),
    async (c) => c.json(await mfa.enrollAuthenticator(c.get('auth')), 200),
  );

  app.openapi(
    createRoute({
      tags: ['mfa'], security, middleware: [authed] as const, method: 'post', path: ApiPaths.mfaAuthenticatorEnrollVerify, summary: 'Confirm the authenticator with its first code', request: body(EnrollVerifyRequest),
      responses: { 200: json(RecoveryCodesResponse, 'Enrolled; recovery codes shown once'), 400: err('Wrong code'), 401: unauthorized, 403: fresh },
    }),
    async (c) => c.json(await mfa.verifyAuthenticatorEnrollment(c.get('auth'), c.req.valid('json').token), 200),
  );

  app.openapi(
    createRoute({
      tags: ['mfa'], security, middleware: [authed] as const, method: 'post', path: ApiPaths.mfaEmailCodeEnroll, summary: 'Start EmailCode enrolment: a code goes to the account email',
      responses: { 200: json(MfaEmailCodePreVerifyResponse, 'Code sent'), 400: err('The account has no email address'), 401: unauthorized, 403: fresh, 409: err('Already enrolled') },
    }),
    async (c) => c.json(await mfa.enrollEmail(c.get('auth')), 200),
  );

  app.openapi(
    createRoute({
      tags: ['mfa'], security, middleware: [authed] as const, method: 'post', path: ApiPaths.mfaEmailCodeEnrollVerify, summary: 'Confirm EmailCode enrolment with the emailed code', request: body(EmailCodeEnrollVerifyRequest),
      responses: { 200: json(RecoveryCodesResponse, 'Enrolled; recovery codes shown once'), 400: err('Wrong or expired code'), 401: unauthorized, 403: fresh },
    }),
    async (c) => {
      const { otcToken, token } = c.req.valid('json');
      return c.json(await mfa.verifyEmailEnrollment(c.get('auth'), otcToken, token), 200);
    },
  );

  app.openapi(
    createRoute({
      tags: ['mfa'], security, middleware: [authed] as const, method: 'post', path: ApiPaths.mfaDisable, summary: 'Disable MFA: remove every factor (needs a current code or a recovery code)', request: body(MfaDisableRequest),
      responses: { 200: json(z.object({}), 'Disabled'), 400: err('Wrong code or not enrolled'), 401: unauthorized, 403: fresh, 429: rateLimitedResponse },
    }),
    async (c) => {
      await mfa.disable(c.get('auth'), null, c.req.valid('json').code);
      return c.json({}, 200);
    },
  );

  app.openapi(
    createRoute({
      tags: ['mfa'], security, middleware: [authed] as const, method: 'post', path: ApiPaths.mfaDeviceDisable, summary: 'Remove one MFA device (needs a current code or a recovery code)',
      request: { params: z.object({ deviceId: z.string().min(1).max(64) }), ...body(MfaDisableRequest) },
      responses: { 200: json(z.object({}), 'Removed'), 400: err('Wrong code or not enrolled'), 401: unauthorized, 403: fresh, 404: err('No such device'), 429: rateLimitedResponse },
    }),
    async (c) => {
      await mfa.disable(c.get('auth'), c.req.valid('param').deviceId, c.req.valid('json').code);
      return c.json({}, 200);
    },
  );

  app.openapi(
    createRoute({
      tags: ['mfa'], security, middleware: [authed] as const, method: 'post', path: SelfServicePaths.regenerateRecoveryCodes,
      summary: 'A new set of recovery codes; the old ones stop working (needs MFA enrolled and a recent step-up)',
      responses: {
        200: json(RecoveryCodesResponse, 'The new codes, shown once'),
        400: err('MFA is not enrolled (ER-01303)'),
        401: unauthorized,
        403: err('No recent step-up (ER-01307, errorContext.maxAge), or an impersonation session'),
      },
    }),
    async (c) => c.json(await mfa.regenerateRecoveryCodes(c.get('auth')), 200),
  );

  return app;
}
