import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  CreatedScimConnection,
  CreateScimConnectionRequest,
  DeleteScimConnectionQuery,
  Permissions,
  ProvisioningPaths,
  RotatedScimToken,
  SCIM_REQUEST_LOG_DEFAULT_LIMIT,
  ScimConnectionList,
  ScimRequestLogPage,
  ScimRequestLogQuery,
} from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { ScimConnectionService } from '../../services/scim/connections';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

const tags = ['admin: provisioning'];
const IdParam = z.object({ id: z.string().min(1).max(64) });

/**
 * The provisioning connections of a tenant (seed 001 section 7 "Directory: SCIM configuration CRUD
 * with deleteAll"), behind fe.secure.read/write.provisioningConfiguration. The POST and the rotation
 * answer the bearer token once; nothing else ever carries it.
 */
export function scimConnectionRoutes(deps: RouteDeps, connections: ScimConnectionService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, deps.clock);
  const read = guard(Permissions.provisioningRead, 'read');
  const write = guard(Permissions.provisioningWrite, 'write');

  app.openapi(
    createRoute({
      method: 'get',
      path: ProvisioningPaths.scim2Configurations,
      tags,
      summary: "Lists the tenant's SCIM provisioning connections with the count of users each provisioned (never a token)",
      ...read,
      request: { query: TenantQuery },
      responses: { 200: json(ScimConnectionList, 'The connections, oldest first'), ...adminErrors },
    }),
    async (c) => c.json({ items: await connections.list(c.get('admin')) } satisfies z.infer<typeof ScimConnectionList>, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ProvisioningPaths.scim2Configurations,
      tags,
      summary: 'Creates a SCIM provisioning connection for a source (frontegg, okta, azure-ad, other); the answer carries its bearer token, shown this once',
      ...write,
      request: { query: TenantQuery, ...body(CreateScimConnectionRequest) },
      responses: { 201: json(CreatedScimConnection, 'The connection and its token'), 400: err('Invalid body (the field is named)'), 409: err('The tenant already has the most provisioning connections it may have (ER-02503)'), ...adminErrors },
    }),
    async (c) => c.json(await connections.create(c.get('admin'), c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ProvisioningPaths.scim2ConfigurationToken,
      tags,
      summary: "Rotates the connection's bearer token: the answer carries the new one, shown this once; the old one stops working at once",
      ...write,
      request: { params: IdParam, query: TenantQuery },
      responses: { 200: json(RotatedScimToken, 'The new token'), ...adminErrors },
    }),
    async (c) => c.json(await connections.rotate(c.get('admin'), c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: ProvisioningPaths.scim2Configuration,
      tags,
      summary: 'Deletes the connection; with deleteAll=true the users it provisioned leave the tenant and its groups are deleted, otherwise they are kept and become editable in the portal',
      ...write,
      request: { params: IdParam, query: TenantQuery.merge(DeleteScimConnectionQuery) },
      responses: { 204: { description: 'Deleted' }, 400: err('Invalid deleteAll (true or false)'), ...adminErrors },
    }),
    async (c) => {
      await connections.remove(c.get('admin'), c.req.valid('param').id, c.req.valid('query').deleteAll === 'true');
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: ProvisioningPaths.scim2ConfigurationRequests,
      tags,
      summary: "The connection's request log: its last 1,000 SCIM requests (method, path, status, time, what changed), newest first, paged by offset and limit",
      ...read,
      request: { params: IdParam, query: TenantQuery.merge(ScimRequestLogQuery) },
      responses: { 200: json(ScimRequestLogPage, 'A page of requests and the total kept'), 400: err('Invalid offset or limit'), ...adminErrors },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await connections.requests(c.get('admin'), c.req.valid('param').id, q.offset ?? 0, q.limit ?? SCIM_REQUEST_LOG_DEFAULT_LIMIT), 200);
    },
  );
  return app;
}
