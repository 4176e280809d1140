import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import {
  Account,
  AccountNode,
  AccountRolesResponse,
  AccountsSearchResponse,
  AccountUserAccessRequest,
  AccountUserRolesRequest,
  AccountUsersQuery,
  AccountUsersResponse,
  AddAccountUsersRequest,
  CreateSubAccountRequest,
  HierarchySettingsRequest,
  ManagementRequest,
  ParentsResponse,
  Permissions,
  SearchQuery,
  SelectedAccount,
  SubAccountPaths,
  SubTenantParam,
  SubTenantUserParam,
  TreeQuery,
  UpdateSubAccountRequest,
  UsersCountRequest,
  UsersCountResponse,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { SubAccountService } from '../../services/admin/sub-accounts';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { adminErrors, guardFor, TenantQuery } from './shared';

const tags = ['admin: sub-accounts'];

/**
 * Sub-accounts (seed 001 section 7 "Tenants: Hierarchy ... Sub-tenants ..."): fe.account-hierarchy.read.subAccount
 * for the structure and the users of accounts, fe.account-hierarchy.write.subAccount for every change.
 * `{subTenantId}` is the caller's tenant or a descendant of it; anything else is 404 (services/admin/sub-accounts.ts).
 */
export function subAccountRoutes(deps: RouteDeps, clock: Clock, accounts: SubAccountService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, clock);
  const read = guard(Permissions.subAccountsRead, 'read');
  const write = guard(Permissions.subAccountsWrite, 'write');
  const one = json(Account, 'The account');
  const refused = { 403: err('Missing permission, no sub-account access to this account, or roles beyond your own permissions') };
  const conflict = (what: string) => ({ 409: err(what) });

  app.openapi(
    createRoute({ method: 'get', path: SubAccountPaths.tree, tags, summary: 'An account (default: the caller\'s) with one page of its children (50 at most) and loadMoreLink', ...read, request: { query: TreeQuery }, responses: { 200: json(AccountNode, 'The account and its children'), ...adminErrors } }),
    async (c) => c.json(await accounts.tree(c.get('admin'), c.req.valid('query')), 200),
  );
  app.openapi(
    createRoute({ method: 'get', path: SubAccountPaths.search, tags, summary: 'Sub-accounts (any depth) whose name starts with _filter', ...read, request: { query: SearchQuery }, responses: { 200: json(AccountsSearchResponse, 'The accounts, by name'), ...adminErrors } }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await accounts.search(c.get('admin'), q._filter, q._offset, q._limit), 200);
    },
  );
  app.openapi(
    createRoute({ method: 'get', path: SubAccountPaths.metadata, tags, summary: "The caller's tenant as an account: hierarchy settings and counts", ...read, request: { query: TenantQuery }, responses: { 200: one, ...adminErrors } }),
    async (c) => c.json(await accounts.metadata(c.get('admin')), 200),
  );
  app.openapi(
    createRoute({ method: 'post', path: SubAccountPaths.usersCount, tags, summary: 'Users count of each account (others left out)', ...read, request: { query: TenantQuery, ...body(UsersCountRequest) }, responses: { 200: json(UsersCountResponse, 'The counts'), 400: err('Invalid body'), ...adminErrors } }),
    async (c) => c.json({ items: await accounts.usersCount(c.get('admin'), c.req.valid('json').tenantIds) }, 200),
  );
  app.openapi(
    createRoute({ method: 'get', path: SubAccountPaths.parents, tags, summary: "The accounts from the caller's tenant down to this one's parent", ...read, request: { params: SubTenantParam, query: TenantQuery }, responses: { 200: json(ParentsResponse, 'The parents, top first'), ...adminErrors } }),
    async (c) => c.json({ parents: await accounts.parents(c.get('admin'), c.req.valid('param').subTenantId) }, 200),
  );
  app.openapi(
    createRoute({ method: 'get', path: SubAccountPaths.subTenant, tags, summary: 'The selected account: counts and parents', ...read, request: { params: SubTenantParam, query: TenantQuery }, responses: { 200: json(SelectedAccount, 'The account'), ...adminErrors } }),
    async (c) => c.json(await accounts.get(c.get('admin'), c.req.valid('param').subTenantId), 200),
  );
  app.openapi(
    createRoute({ method: 'post', path: SubAccountPaths.subTenants, tags, summary: 'Creates a sub-account (name, parentTenantId, tenantId)', ...write, request: { query: TenantQuery, ...body(CreateSubAccountRequest) }, responses: { 201: one, 400: err('Invalid body, or too deep'), ...conflict('Tenant id taken'), ...adminErrors, ...refused } }),
    async (c) => c.json(await accounts.create(c.get('admin'), c.req.valid('json')), 201),
  );
  app.openapi(
    createRoute({ method: 'patch', path: SubAccountPaths.subTenant, tags, summary: 'Renames or moves a sub-account, or changes its metadata or type', ...write, request: { params: SubTenantParam, query: TenantQuery, ...body(UpdateSubAccountRequest) }, responses: { 200: one, 400: err('Invalid body'), ...conflict('Moving under itself or a descendant'), ...adminErrors, ...refused } }),
    async (c) => c.json(await accounts.update(c.get('admin'), c.req.valid('param').subTenantId, c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({ method: 'delete', path: SubAccountPaths.subTenant, tags, summary: 'Deletes a sub-account without sub-accounts of its own', ...write, request: { params: SubTenantParam, query: TenantQuery }, responses: { 204: { description: 'Deleted' }, ...conflict('The account has sub-accounts'), ...adminErrors, ...refused } }),
    async (c) => {
      await accounts.remove(c.get('admin'), c.req.valid('param').subTenantId);
      return c.body(null, 204);
    },
  );
  app.openapi(
    createRoute({ method: 'put', path: SubAccountPaths.management, tags, summary: 'Enables or disables sub-account management (isReseller)', ...write, request: { params: SubTenantParam, query: TenantQuery, ...body(ManagementRequest) }, responses: { 200: one, 400: err('Invalid body'), ...adminErrors, ...refused } }),
    async (c) => c.json(await accounts.setManagement(c.get('admin'), c.req.valid('param').subTenantId, c.req.valid('json').isReseller), 200),
  );
  app.openapi(
    createRoute({ method: 'put', path: SubAccountPaths.hierarchySettings, tags, summary: "Sets how the account's users reach its sub-accounts (an access type is required)", ...write, request: { params: SubTenantParam, query: TenantQuery, ...body(HierarchySettingsRequest) }, responses: { 200: one, 400: err('No access type'), ...adminErrors, ...refused } }),
    async (c) => c.json(await accounts.setHierarchySettings(c.get('admin'), c.req.valid('param').subTenantId, c.req.valid('json').subAccountAccessType), 200),
  );
  app.openapi(
    createRoute({ method: 'get', path: SubAccountPaths.roles, tags, summary: "The account's roles", ...read, request: { params: SubTenantParam, query: TenantQuery }, responses: { 200: json(AccountRolesResponse, 'The roles'), ...adminErrors, ...refused } }),
    async (c) => c.json({ items: await accounts.roles(c.get('admin'), c.req.valid('param').subTenantId) }, 200),
  );
  app.openapi(
    createRoute({ method: 'get', path: SubAccountPaths.users, tags, summary: "One page (10 at most) of the account's users with their roles and sub-account access", ...read, request: { params: SubTenantParam, query: AccountUsersQuery }, responses: { 200: json(AccountUsersResponse, 'The users'), ...adminErrors, ...refused } }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await accounts.users(c.get('admin'), c.req.valid('param').subTenantId, q._offset, q._limit), 200);
    },
  );
  app.openapi(
    createRoute({ method: 'post', path: SubAccountPaths.users, tags, summary: "Adds users of the caller's tenant to the sub-account with these roles of it", ...write, request: { params: SubTenantParam, query: TenantQuery, ...body(AddAccountUsersRequest) }, responses: { 200: json(AccountUsersResponse, 'The first page of users'), 400: err('Invalid body'), ...conflict('Already in the account'), ...adminErrors, ...refused } }),
    async (c) => c.json(await accounts.addUsers(c.get('admin'), c.req.valid('param').subTenantId, c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({ method: 'delete', path: SubAccountPaths.user, tags, summary: 'Removes a user from the sub-account', ...write, request: { params: SubTenantUserParam, query: TenantQuery }, responses: { 204: { description: 'Removed' }, ...adminErrors, ...refused } }),
    async (c) => {
      const p = c.req.valid('param');
      await accounts.removeUser(c.get('admin'), p.subTenantId, p.userId);
      return c.body(null, 204);
    },
  );
  app.openapi(
    createRoute({ method: 'put', path: SubAccountPaths.userRoles, tags, summary: "Sets the user's roles in the sub-account", ...write, request: { params: SubTenantUserParam, query: TenantQuery, ...body(AccountUserRolesRequest) }, responses: { 204: { description: 'Set' }, 400: err('Invalid body'), ...adminErrors, ...refused } }),
    async (c) => {
      const p = c.req.valid('param');
      await accounts.setUserRoles(c.get('admin'), p.subTenantId, p.userId, c.req.valid('json').roleIds);
      return c.body(null, 204);
    },
  );
  app.openapi(
    createRoute({ method: 'put', path: SubAccountPaths.userAccess, tags, summary: "Grants or revokes the user's access to the account's sub-accounts", ...write, request: { params: SubTenantUserParam, query: TenantQuery, ...body(AccountUserAccessRequest) }, responses: { 204: { description: 'Set' }, 400: err('Invalid body'), ...adminErrors, ...refused } }),
    async (c) => {
      const p = c.req.valid('param');
      await accounts.setUserAccess(c.get('admin'), p.subTenantId, p.userId, c.req.valid('json').allowAccess);
      return c.body(null, 204);
    },
  );
  return app;
}
