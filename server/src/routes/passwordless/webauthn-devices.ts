import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiPaths, PasskeyDevice, PasskeyDevicesResponse, PasskeyRegistrationOptionsResponse, PasskeyRegistrationVerifyRequest } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import { requireAuth } from '../../http/middleware';
import { refuseWhileImpersonating } from '../../services/admin/permissions';
import type { WebauthnService } from '../../services/passwordless/webauthn';
import type { RouteDeps } from '../deps';
import { json, err } from '../openapi';

const unauthorized = err('Missing, invalid or expired access token');

/** The signed-in user's passkeys: register (options, then verify), list, remove. */
export function webauthnDeviceRoutes(deps: RouteDeps, webauthn: WebauthnService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const authed = [requireAuth(deps.auth)];
  const security = [{ Bearer: [] }];

  app.openapi(
    createRoute({ method: 'get', path: ApiPaths.webauthnDevices, tags: ['users'], summary: "The signed-in user's passkeys", security, middleware: authed, responses: { 200: json(PasskeyDevicesResponse, 'Passkeys, oldest first'), 401: unauthorized } }),
    async (c) => c.json({ devices: await webauthn.listDevices(c.get('auth').userId) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.webauthnDevices,
      tags: ['users'],
      summary: 'Start registering a passkey: creation options with a challenge bound to this session',
      security,
      middleware: authed,
      responses: { 200: json(PasskeyRegistrationOptionsResponse, 'Options for navigator.credentials.create()'), 401: unauthorized },
    }),
    async (c) => c.json({ options: await webauthn.registrationOptions(c.get('auth')) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.webauthnDevicesVerify,
      tags: ['users'],
      summary: 'Finish registering a passkey: verify the attestation and store the credential',
      security,
      middleware: authed,
      request: { body: { required: true, content: { 'application/json': { schema: PasskeyRegistrationVerifyRequest } } } },
      responses: {
        201: json(PasskeyDevice, 'The stored passkey'),
        400: err('Invalid body, challenge or attestation'),
        401: unauthorized,
        409: err('This passkey is already registered'),
      },
    }),
    async (c) => {
      const { credential, name } = c.req.valid('json');
      return c.json(await webauthn.verifyRegistration(c.get('auth'), credential, name), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: ApiPaths.webauthnDevice,
      tags: ['users'],
      summary: 'Remove one of your passkeys; it can no longer sign in',
      security,
      middleware: authed,
      request: { params: z.object({ deviceId: z.string().min(1).max(64) }) },
      responses: { 200: json(z.object({}), 'Removed'), 401: unauthorized, 403: err('Not while impersonating the user'), 404: err('No such passkey of yours') },
    }),
    async (c) => {
      // A passkey may be the account's only way in: an impersonator must not take it away.
      refuseWhileImpersonating(c.get('auth'));
      await webauthn.removeDevice(c.get('auth'), c.req.valid('param').deviceId);
      return c.json({}, 200);
    },
  );

  return app;
}
