import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiPaths, LoginResponse, ME_TOKEN_PATH, MeAuthorizationResponse, MeResponse, MeTenantsV3Response, MeTokenRequest, MeTokenResponse, SwitchTenantRequest, TenantSummary, UpdateMeRequest } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { ErrorBodySchema, rateLimitedResponse, validationHook } from '../../http/errors';
import { requireAuth } from '../../http/middleware';
import type { UserService } from '../../services/users/users';
import type { RouteDeps } from '../deps';
import { json } from '../openapi';

const unauthorized = json(ErrorBodySchema, 'Missing, invalid or expired access token');
const query = z.object({ tenantId: z.string().max(64).optional() });

/** The signed-in user's own profile, authorization and tenants. */
export function meRoutes(deps: RouteDeps, users: UserService): OpenAPIHono<AppEnv> {
  const { auth } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const authed = [requireAuth(auth)];
  const security = [{ Bearer: [] }];

  app.openapi(
    createRoute({ method: 'get', path: ApiPaths.me, tags: ['users'], security, middleware: authed, request: { query }, responses: { 200: json(MeResponse, 'The current user'), 401: unauthorized } }),
    async (c) => c.json(await users.getMe(c.get('auth')), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: ApiPaths.me,
      tags: ['users'],
      security,
      middleware: authed,
      request: { query, body: { required: true, content: { 'application/json': { schema: UpdateMeRequest } } } },
      responses: { 200: json(MeResponse, 'The updated user'), 400: json(ErrorBodySchema, 'Invalid profile'), 401: unauthorized },
    }),
    async (c) => c.json(await users.updateMe(c.get('auth'), c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({ method: 'get', path: ApiPaths.meAuthorization, tags: ['users'], security, middleware: authed, request: { query }, responses: { 200: json(MeAuthorizationResponse, 'Roles and permissions in the active tenant'), 401: unauthorized } }),
    async (c) => c.json(await users.getAuthorization(c.get('auth')), 200),
  );

  for (const path of [ApiPaths.meTenantsV1, ApiPaths.meTenantsV2]) {
    app.openapi(
      createRoute({ method: 'get', path, tags: ['users'], security, middleware: authed, responses: { 200: json(z.array(TenantSummary), 'Tenants of the user'), 401: unauthorized } }),
      async (c) => c.json(await users.listTenants(c.get('auth')), 200),
    );
  }

  app.openapi(
    createRoute({ method: 'get', path: ApiPaths.meTenantsV3, tags: ['users'], security, middleware: authed, request: { query }, responses: { 200: json(MeTenantsV3Response, 'Tenants and the active one'), 401: unauthorized } }),
    async (c) => c.json(await users.tenantsV3(c.get('auth')), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: ApiPaths.switchTenant,
      tags: ['users'],
      summary: "Switch the session's active tenant; returns an access token for it",
      security,
      middleware: authed,
      request: { body: { required: true, content: { 'application/json': { schema: SwitchTenantRequest } } } },
      responses: {
        200: json(LoginResponse, 'Access token for the new tenant'),
        401: unauthorized,
        403: json(ErrorBodySchema, "The tenant's MFA policy, sessions policy or IP restrictions refuse this session, or an impersonation or a hosted-login application's session asked for another tenant"),
        404: json(ErrorBodySchema, 'Not a tenant of this user'),
      },
    }),
    async (c) => c.json(await auth.switchTenant(c.get('auth'), c.req.valid('json').tenantId), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ME_TOKEN_PATH,
      tags: ['users'],
      summary:
        "A fresh access token of the caller's own session, claims read now, for `tenantId` (one of the caller's tenants) or the token's tenant; the active tenant and the refresh cookie stay as they are, and it expires no later than the token presented",
      security,
      middleware: authed,
      request: { query, body: { required: true, content: { 'application/json': { schema: MeTokenRequest } } } },
      responses: {
        200: json(MeTokenResponse, 'The new access token'),
        400: json(ErrorBodySchema, 'Invalid body (the message names the field)'),
        401: unauthorized,
        403: json(ErrorBodySchema, "The tenant's MFA policy or IP restrictions refuse this session, or an impersonation or a hosted-login application's session asked for another tenant"),
        404: json(ErrorBodySchema, 'Not a tenant of this user'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => {
      const { tenantId } = c.req.valid('json');
      let ctx = c.get('auth');
      // Another tenant than the one the call acts in: checked as any call scoped to it (membership, MFA policy, IP restrictions).
      if (tenantId && tenantId !== ctx.tenantId) ctx = { ...(await auth.authenticate(c.req.header('authorization'), tenantId, ctx.client ?? { ip: null })), client: ctx.client };
      const issued = await auth.meToken(ctx);
      c.header('Cache-Control', 'no-store');
      return c.json({ accessToken: issued.accessToken, expiresIn: issued.expiresIn, expires: issued.expires, tenantId: ctx.tenantId, userId: ctx.userId }, 200);
    },
  );

  return app;
}
