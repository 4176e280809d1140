import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiTokenList, ApiTokenPaths, CreatedApiToken, CreateTenantApiTokenRequest, CreateUserApiTokenRequest, Permissions, type ApiTokenType } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { ApiTokenKind, ApiTokenService } from '../../services/admin/api-tokens';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { adminErrors, guardFor, TenantQuery } from './shared';

const tags = ['admin: API tokens'];
const TokenIdParam = z.object({ tokenId: z.string().min(1).max(64) });

/**
 * Personal and tenant API tokens and access tokens (seed 001 section 7 "API tokens and access tokens,
 * user and tenant: GET, POST, DELETE"): fe.secure.read/write.userApiTokens for personal tokens (the
 * caller's own), fe.secure.read/write.tenantApiTokens for the tenant's. The POST answers the secret
 * once; lists never carry it.
 */
export function apiTokenRoutes(deps: RouteDeps, clock: Clock, tokens: ApiTokenService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, clock);
  const sets: { kind: ApiTokenKind; type: ApiTokenType; list: string; one: string }[] = [
    { kind: 'user', type: 'ClientCredentials', list: ApiTokenPaths.userApiTokens, one: ApiTokenPaths.userApiToken },
    { kind: 'tenant', type: 'ClientCredentials', list: ApiTokenPaths.tenantApiTokens, one: ApiTokenPaths.tenantApiToken },
    { kind: 'user', type: 'AccessToken', list: ApiTokenPaths.userAccessTokens, one: ApiTokenPaths.userAccessToken },
    { kind: 'tenant', type: 'AccessToken', list: ApiTokenPaths.tenantAccessTokens, one: ApiTokenPaths.tenantAccessToken },
  ];
  for (const { kind, type, list, one } of sets) {
    const read = guard(kind === 'user' ? Permissions.userApiTokensRead : Permissions.tenantApiTokensRead, 'read');
    const write = guard(kind === 'user' ? Permissions.userApiTokensWrite : Permissions.tenantApiTokensWrite, 'write');
    const what = `${kind === 'user' ? "the caller's personal" : "the tenant's"} ${type === 'AccessToken' ? 'access tokens' : 'API tokens (client credentials)'}`;
    const Body = kind === 'user' ? CreateUserApiTokenRequest : CreateTenantApiTokenRequest;

    app.openapi(
      createRoute({ method: 'get', path: list, tags, summary: `Lists ${what} (never the secrets)`, ...read, request: { query: TenantQuery }, responses: { 200: json(ApiTokenList, 'The tokens, newest first'), ...adminErrors } }),
      async (c) => c.json({ items: await tokens.list(c.get('admin'), kind, type) } satisfies z.infer<typeof ApiTokenList>, 200),
    );

    app.openapi(
      createRoute({
        method: 'post',
        path: list,
        tags,
        summary: `Creates one of ${what}${kind === 'tenant' ? ' with roleIds (only roles whose permissions the caller holds)' : ''}; the answer carries the secret, shown this once`,
        ...write,
        request: { query: TenantQuery, ...body(Body) },
        responses: { 201: json(CreatedApiToken, 'The token and its secret'), 400: err('Invalid body'), ...adminErrors },
      }),
      async (c) => c.json(await tokens.create(c.get('admin'), kind, type, c.req.valid('json')), 201),
    );

    app.openapi(
      createRoute({ method: 'delete', path: one, tags, summary: `Deletes one of ${what}: it, and every access token exchanged from it, stops working at once`, ...write, request: { params: TokenIdParam, query: TenantQuery }, responses: { 204: { description: 'Deleted' }, ...adminErrors } }),
      async (c) => {
        await tokens.remove(c.get('admin'), kind, type, c.req.valid('param').tokenId);
        return c.body(null, 204);
      },
    );
  }
  return app;
}
