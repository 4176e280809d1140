import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiPaths, ImpersonateRequest, ImpersonationRequest, ImpersonationResponse, LoginResponse } from '@gatehouse/shared/wire';
import { setRefreshCookie } from '../../http/cookies';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { clientIp, emailLinkBase, requireAllowedOrigin, requireAuth } from '../../http/middleware';
import type { ImpersonationService } from '../../services/admin/impersonation';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

/** An admin's impersonation token, and its exchange for a session of the target (the login box's impersonation route). */
export function impersonationRoutes(deps: RouteDeps, impersonation: ImpersonationService): OpenAPIHono<AppEnv> {
  const { config, auth } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.impersonation,
      tags: ['impersonation'],
      summary: 'A short-lived, single-use token to act as a user of the tenant the caller acts in (never a session)',
      security: [{ Bearer: [] }],
      middleware: [requireAuth(auth)] as const,
      request: { query: z.object({ tenantId: z.string().max(64).optional() }), ...body(ImpersonationRequest) },
      responses: {
        200: json(ImpersonationResponse, 'The token and the impersonation route URL carrying it'),
        400: err('Invalid body, or the caller itself'),
        401: err('Not signed in'),
        403: err('Missing permission fe.secure.write.impersonate, a super user or disabled target, a target with more permissions, or already impersonating'),
        404: err('No such user in this tenant'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => c.json(await impersonation.issue(c.get('auth'), c.req.valid('json'), emailLinkBase(c, config)), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.impersonate,
      tags: ['impersonation'],
      summary: "Exchange an impersonation token for a short session of the user; its access tokens carry an RFC 8693 act claim",
      middleware: [requireAllowedOrigin(config)] as const,
      request: body(ImpersonateRequest),
      responses: {
        200: json(LoginResponse, 'Signed in as the user (refresh cookie set)'),
        400: err('Invalid, expired or used token'),
        403: err('No longer allowed (permission removed, user disabled, ...)'),
        404: err('The user left the tenant'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => {
      const issued = await impersonation.exchange(c.req.valid('json').token, { ...c.get('client') });
      setRefreshCookie(c, config, issued.refreshToken);
      return c.json(issued.response, 200);
    },
  );

  return app;
}
