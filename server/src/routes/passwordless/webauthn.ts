import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { ApiPaths, LoginResponse, PasskeyPostLoginRequest, PasskeyPreLoginRequest, PasskeyPreLoginResponse } from '@gatehouse/shared/wire';
import { setRefreshCookie } from '../../http/cookies';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { clientIp, requireAllowedOrigin } from '../../http/middleware';
import type { WebauthnService } from '../../services/passwordless/webauthn';
import type { RouteDeps } from '../deps';
import { json, err } from '../openapi';

/** Passkey sign-in (seed 000 section 7.2): prelogin gives the challenge, postlogin sets the session. */
export function webauthnLoginRoutes(deps: RouteDeps, webauthn: WebauthnService): OpenAPIHono<AppEnv> {
  const { config } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const originGuard = requireAllowedOrigin(config);

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.webauthnPreLogin,
      tags: ['auth'],
      summary: 'Start a passkey sign-in: request options with a fresh single-use challenge (identifier optional)',
      middleware: [originGuard] as const,
      request: { body: { required: false, content: { 'application/json': { schema: PasskeyPreLoginRequest } } } },
      responses: { 200: json(PasskeyPreLoginResponse, 'Options for navigator.credentials.get()'), 400: err('Invalid body'), 429: rateLimitedResponse },
    }),
    async (c) => {
      const body = c.req.header('content-type')?.includes('json') ? c.req.valid('json') : {};
      const options = await webauthn.preLogin(body ?? {}, { ...c.get('client') });
      return c.json({ options }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.webauthnPostLogin,
      tags: ['auth'],
      summary: 'Finish a passkey sign-in: verify the assertion and start a session',
      middleware: [originGuard] as const,
      request: { body: { required: true, content: { 'application/json': { schema: PasskeyPostLoginRequest } } } },
      responses: {
        200: json(LoginResponse, 'Signed in; the refresh token is set as an httpOnly cookie'),
        400: err('Invalid body, or an unknown, used or expired challenge'),
        401: err('Unknown passkey or failed verification'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => {
      const { credential } = c.req.valid('json');
      const issued = await webauthn.postLogin(credential, { ...c.get('client') });
      setRefreshCookie(c, config, issued.refreshToken);
      return c.json(issued.response, 200);
    },
  );

  return app;
}
