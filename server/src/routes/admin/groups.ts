import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { AdminPaths, CreateGroupRequest, Group, GroupIdParam, GroupRolesRequest, GroupsBulkGetRequest, GroupsQuery, GroupsResponse, GroupUsersRequest, Permissions, UpdateGroupRequest } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { AdminGroupService } from '../../services/admin/groups';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { adminErrors, guardFor, TenantQuery } from './shared';

const tags = ['admin: groups'];

/** Groups of the tenant (seed 001 section 7 "groups CRUD plus roles and users, bulkGet"): fe.secure.read.groups / fe.secure.write.groups. */
export function adminGroupRoutes(deps: RouteDeps, clock: Clock, groups: AdminGroupService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, clock);
  const read = guard(Permissions.groupsRead, 'read');
  const write = guard(Permissions.groupsWrite, 'write');
  const one = json(Group, 'The group with its roles and users');
  const refused = { 403: err('Missing permission, roles beyond your own permissions, or a group managed by an identity provider (read-only)') };

  app.openapi(
    createRoute({ method: 'get', path: AdminPaths.groups, tags, summary: "The tenant's groups; _groupsRelations fills roles, users or both", ...read, request: { query: GroupsQuery }, responses: { 200: json(GroupsResponse, 'The groups'), ...adminErrors } }),
    async (c) => c.json({ groups: await groups.list(c.get('admin'), c.req.valid('query')._groupsRelations) }, 200),
  );

  app.openapi(
    createRoute({ method: 'get', path: AdminPaths.group, tags, summary: 'One group', ...read, request: { params: GroupIdParam, query: TenantQuery }, responses: { 200: one, ...adminErrors } }),
    async (c) => c.json(await groups.get(c.get('admin'), c.req.valid('param').groupId), 200),
  );

  app.openapi(
    createRoute({ method: 'post', path: AdminPaths.groupsBulkGet, tags, summary: 'These groups of the tenant (ids of other tenants are left out)', ...read, request: { query: TenantQuery, ...body(GroupsBulkGetRequest) }, responses: { 200: json(GroupsResponse, 'The groups'), 400: err('Invalid body'), ...adminErrors } }),
    async (c) => c.json({ groups: await groups.bulkGet(c.get('admin'), c.req.valid('json').groupsIds) }, 200),
  );

  app.openapi(
    createRoute({ method: 'post', path: AdminPaths.groups, tags, summary: 'Creates a group (name, description, color, metadata, roleIds)', ...write, request: { query: TenantQuery, ...body(CreateGroupRequest) }, responses: { 201: one, 400: err('Invalid body'), 409: err('Name taken'), ...adminErrors, ...refused } }),
    async (c) => c.json(await groups.create(c.get('admin'), c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({ method: 'patch', path: AdminPaths.group, tags, summary: 'Updates name, description, color or metadata', ...write, request: { params: GroupIdParam, query: TenantQuery, ...body(UpdateGroupRequest) }, responses: { 200: one, 400: err('Invalid body'), 409: err('Name taken'), ...adminErrors, ...refused } }),
    async (c) => c.json(await groups.update(c.get('admin'), c.req.valid('param').groupId, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({ method: 'delete', path: AdminPaths.group, tags, summary: 'Deletes a group (its members lose its roles)', ...write, request: { params: GroupIdParam, query: TenantQuery }, responses: { 204: { description: 'Deleted' }, ...adminErrors, ...refused } }),
    async (c) => {
      await groups.remove(c.get('admin'), c.req.valid('param').groupId);
      return c.body(null, 204);
    },
  );

  for (const [method, summary, run] of [
    ['post', 'Adds roles of the tenant to the group', (caller, id, ids) => groups.addRoles(caller, id, ids)],
    ['delete', 'Removes roles from the group', (caller, id, ids) => groups.removeRoles(caller, id, ids)],
  ] as const satisfies readonly (readonly ['post' | 'delete', string, (caller: AppEnv['Variables']['admin'], id: string, ids: string[]) => Promise<Group>])[]) {
    app.openapi(
      createRoute({ method, path: AdminPaths.groupRoles, tags, summary, ...write, request: { params: GroupIdParam, query: TenantQuery, ...body(GroupRolesRequest) }, responses: { 200: one, 400: err('Invalid body'), ...adminErrors, ...refused } }),
      async (c) => c.json(await run(c.get('admin'), c.req.valid('param').groupId, c.req.valid('json').roleIds), 200),
    );
  }

  for (const [method, summary, run] of [
    ['post', 'Adds users of the tenant to the group', (caller, id, ids) => groups.addUsers(caller, id, ids)],
    ['delete', 'Removes users from the group', (caller, id, ids) => groups.removeUsers(caller, id, ids)],
  ] as const satisfies readonly (readonly ['post' | 'delete', string, (caller: AppEnv['Variables']['admin'], id: string, ids: string[]) => Promise<Group>])[]) {
    app.openapi(
      createRoute({ method, path: AdminPaths.groupUsers, tags, summary, ...write, request: { params: GroupIdParam, query: TenantQuery, ...body(GroupUsersRequest) }, responses: { 200: one, 400: err('Invalid body'), ...adminErrors, ...refused } }),
      async (c) => c.json(await run(c.get('admin'), c.req.valid('param').groupId, c.req.valid('json').userIds), 200),
    );
  }

  return app;
}
