import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiPaths, LoginResponse, MeAuthorizationResponse, MeResponse, MeTenantsV3Response, SwitchTenantRequest, TenantSummary, UpdateMeRequest } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { ErrorBodySchema, validationHook } from '../../http/errors';
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
      responses: { 200: json(LoginResponse, 'Access token for the new tenant'), 401: unauthorized, 404: json(ErrorBodySchema, 'Not a tenant of this user') },
    }),
    async (c) => c.json(await auth.switchTenant(c.get('auth'), c.req.valid('json').tenantId), 200),
  );

  return app;
}
