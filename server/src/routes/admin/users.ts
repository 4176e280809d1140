import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  AdminPaths,
  BulkInviteRequest,
  BulkInviteResponse,
  Permissions,
  SetUserRolesRequest,
  TeamMembersQuery,
  TeamStats,
  TemporaryUserRequest,
  TemporaryUsersConfiguration,
  TenantUser,
  UserIdParam,
  UserIdsQuery,
  UsersGroupsResponse,
  UsersPage,
  UsersRolesResponse,
  UsersV3Query,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { emailLinkBase } from '../../http/middleware';
import type { AdminCaller } from '../../services/admin/access';
import type { AdminUserService } from '../../services/admin/users';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { adminErrors, guardFor, TenantQuery } from './shared';

const tags = ['admin: users'];

/**
 * The users of the tenant the caller acts in (seed 001 section 7 "users v3", "Team", "Tenant users
 * disable and enable", "Temporary users"). Reads need fe.secure.read.users, changes fe.secure.write.users.
 */
export function adminUserRoutes(deps: RouteDeps, clock: Clock, users: AdminUserService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, clock);
  const read = guard(Permissions.usersRead, 'read');
  const write = guard(Permissions.usersWrite, 'write');
  const oneUser = json(TenantUser, 'The user as the users table shows it');

  app.openapi(
    createRoute({
      method: 'get',
      path: AdminPaths.usersV3,
      tags,
      summary: 'One page of the tenant\'s users: _offset (page index), _limit, _filter (name or email prefix), _sortBy, _order, _preset (mfa-unenrolled, breached-passwords, inactive); or cursor (nextCursor / prevCursor of an earlier answer) for deep pages',
      ...read,
      request: { query: UsersV3Query },
      responses: { 200: json(UsersPage, 'The page and the totals'), 400: err('Invalid query'), ...adminErrors },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(
        await users.list(c.get('admin'), { page: q._offset, pageSize: q._limit, search: q._filter, sortBy: q._sortBy, sortDirection: q._order.toLowerCase() as 'asc' | 'desc', preset: q._preset, cursor: q.cursor }),
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: AdminPaths.teamMembers,
      tags,
      summary: "One page of the tenant's users (seed 001 users list query: pageOffset, pageSize, filter, sortBy, sortDirection; default by name, 20 a page); or cursor (nextCursor / prevCursor of an earlier answer) for deep pages",
      ...read,
      request: { query: TeamMembersQuery },
      responses: { 200: json(UsersPage, 'The page and the totals'), 400: err('Invalid query'), ...adminErrors },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await users.list(c.get('admin'), { page: q.pageOffset, pageSize: q.pageSize, search: q.filter, sortBy: q.sortBy, sortDirection: q.sortDirection, preset: q.preset, cursor: q.cursor }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: AdminPaths.usersRolesV3,
      tags,
      summary: 'The roles of these users (ids joined by commas) in the tenant; ids of non-members are left out',
      ...read,
      request: { query: UserIdsQuery },
      responses: { 200: json(UsersRolesResponse, 'Roles per user'), 400: err('Invalid ids'), ...adminErrors },
    }),
    async (c) => c.json(await users.rolesOf(c.get('admin'), c.req.valid('query').ids), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: AdminPaths.usersGroupsV3,
      tags,
      summary: 'The groups of these users (ids joined by commas) in the tenant; ids of non-members are left out',
      ...read,
      request: { query: UserIdsQuery },
      responses: { 200: json(UsersGroupsResponse, 'Groups per user'), 400: err('Invalid ids'), ...adminErrors },
    }),
    async (c) => c.json(await users.groupsOf(c.get('admin'), c.req.valid('query').ids), 200),
  );

  app.openapi(
    createRoute({ method: 'get', path: AdminPaths.teamStats, tags, summary: 'Counts for the team page', ...read, request: { query: TenantQuery }, responses: { 200: json(TeamStats, 'Counts'), ...adminErrors } }),
    async (c) => c.json(await users.stats(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: AdminPaths.teamMembers,
      tags,
      summary: "Sets a user's roles in the tenant (['']: no roles). Needs every permission of the roles granted or taken away",
      ...write,
      request: { query: TenantQuery, ...body(SetUserRolesRequest) },
      responses: { 200: oneUser, 400: err('Invalid body, a role of another account, or yourself'), ...adminErrors },
    }),
    async (c) => {
      const { id, roleIds } = c.req.valid('json');
      return c.json(await users.setRoles(c.get('admin'), id, roleIds), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: AdminPaths.teamMember,
      tags,
      summary: 'Removes the user from the tenant (roles, groups, invitation, sessions here); an account left with no tenant is deleted',
      ...write,
      request: { params: UserIdParam, query: TenantQuery },
      responses: { 204: { description: 'Removed' }, 400: err('Yourself'), ...adminErrors },
    }),
    async (c) => {
      await users.remove(c.get('admin'), c.req.valid('param').userId);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: AdminPaths.teamResendActivation,
      tags,
      summary: 'Emails the invitation (new link) or the activation email again',
      ...write,
      request: { params: UserIdParam, query: TenantQuery },
      responses: { 200: json(z.object({}), 'Sent (an activation email within its own per-address limit)'), 400: err('Already activated'), 429: rateLimitedResponse, ...adminErrors },
    }),
    async (c) => {
      await users.resendActivation(c.get('admin'), c.req.valid('param').userId, emailLinkBase(c, deps.config));
      return c.json({}, 200);
    },
  );

  const state = (path: string, summary: string, run: (userId: string, caller: AdminCaller) => Promise<TenantUser>) =>
    app.openapi(
      createRoute({ method: 'post', path, tags, summary, ...write, request: { params: UserIdParam, query: TenantQuery }, responses: { 200: oneUser, 400: err('Yourself'), ...adminErrors } }),
      async (c) => c.json(await run(c.req.valid('param').userId, c.get('admin')), 200),
    );
  state(AdminPaths.tenantUserDisable, 'Disables the user in this tenant (sessions here end; other tenants untouched)', (id, caller) => users.setDisabled(caller, id, true));
  state(AdminPaths.tenantUserEnable, 'Enables the user in this tenant again', (id, caller) => users.setDisabled(caller, id, false));
  state(AdminPaths.tenantUserLock, 'Locks the user out of this tenant (sessions here end)', (id, caller) => users.setLocked(caller, id, true));
  state(AdminPaths.tenantUserUnlock, "Unlocks the user in this tenant (and the lockout policy's lock when this is their only tenant)", (id, caller) => users.setLocked(caller, id, false));

  app.openapi(
    createRoute({
      method: 'put',
      path: AdminPaths.temporaryUser,
      tags,
      summary: "Makes the user temporary: their membership of this tenant ends expirationInSeconds from now",
      ...write,
      request: { params: UserIdParam, query: TenantQuery, ...body(TemporaryUserRequest) },
      responses: { 200: oneUser, 400: err('Invalid body, yourself, or temporary users are off'), ...adminErrors },
    }),
    async (c) => c.json(await users.setTemporary(c.get('admin'), c.req.valid('param').userId, c.req.valid('json').expirationInSeconds), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: AdminPaths.temporaryUser,
      tags,
      summary: 'Makes a temporary user permanent again',
      ...write,
      request: { params: UserIdParam, query: TenantQuery },
      responses: { 200: oneUser, 400: err('Yourself, or temporary users are off'), ...adminErrors },
    }),
    async (c) => c.json(await users.setTemporary(c.get('admin'), c.req.valid('param').userId, null), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: AdminPaths.temporaryUsersConfiguration,
      tags,
      summary: 'Whether temporary users are on (TEMPORARY_USERS)',
      ...read,
      request: { query: TenantQuery },
      responses: { 200: json(TemporaryUsersConfiguration, 'The configuration'), ...adminErrors },
    }),
    async (c) => c.json(users.temporaryConfiguration(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: AdminPaths.bulkInvite,
      tags,
      summary: 'Invites each email, one by one, into the tenant; answers which were invited (allowed) and which were not and why (unallowed)',
      ...write,
      request: { query: TenantQuery, ...body(BulkInviteRequest) },
      responses: { 200: json(BulkInviteResponse, 'The split'), 400: err('Invalid body'), ...adminErrors },
    }),
    async (c) => c.json(await users.bulkInvite(c.get('admin'), c.req.valid('json'), emailLinkBase(c, deps.config)), 200),
  );

  return app;
}

