import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  AdminPaths,
  AttachPermissionToRolesRequest,
  CategoryIdParam,
  CreateCategoryRequest,
  CreatePermissionRequest,
  CreateRoleRequest,
  CreateRoleV2Request,
  Permission,
  PermissionCategory,
  PermissionIdParam,
  Permissions,
  Role,
  RoleIdParam,
  SetRolePermissionsRequest,
  TeamRolesResponse,
  UpdateCategoryRequest,
  UpdatePermissionRequest,
  UpdateRoleRequest,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { AdminRoleService } from '../../services/admin/roles';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { adminErrors, guardFor, TenantQuery } from './shared';

const tags = ['admin: roles and permissions'];

/**
 * Roles of the tenant and the permission catalogue (seed 001 section 7 "Roles v1 and v2, permissions,
 * categories CRUD"). Roles: fe.secure.read.roles / fe.secure.write.roles. The catalogue is shared by
 * every tenant: tenant admins read it, only super users change it. The team dialogs' roles need
 * fe.secure.read.users only.
 */
export function adminRoleRoutes(deps: RouteDeps, clock: Clock, roles: AdminRoleService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, clock);
  const read = guard(Permissions.rolesRead, 'read');
  const write = guard(Permissions.rolesWrite, 'write');
  const one = json(Role, 'The role');
  const escalation = { 403: err('Missing permission, or a role with permissions beyond your own') };
  const vendor = { 403: err('Not a super user: the catalogue is shared by every account') };

  app.openapi(
    createRoute({ method: 'get', path: AdminPaths.rolesV1, tags, summary: "The tenant's roles with their permission ids", ...read, request: { query: TenantQuery }, responses: { 200: json(z.array(Role), 'The roles'), ...adminErrors } }),
    async (c) => c.json(await roles.list(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({ method: 'get', path: AdminPaths.teamRoles, tags, summary: 'The roles and permissions the team dialogs offer', ...guard(Permissions.usersRead, 'read'), request: { query: TenantQuery }, responses: { 200: json(TeamRolesResponse, 'Roles and the catalogue'), ...adminErrors } }),
    async (c) => c.json(await roles.teamRoles(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({ method: 'post', path: AdminPaths.rolesV1, tags, summary: 'Creates a role (key, name, description, isDefault)', ...write, request: { query: TenantQuery, ...body(CreateRoleRequest) }, responses: { 201: one, 400: err('Invalid body'), 409: err('Key taken'), ...adminErrors } }),
    async (c) => c.json(await roles.create(c.get('admin'), { ...c.req.valid('json'), permissionIds: [] }), 201),
  );

  app.openapi(
    createRoute({ method: 'post', path: AdminPaths.rolesV2, tags, summary: 'Creates a role with its permissions', ...write, request: { query: TenantQuery, ...body(CreateRoleV2Request) }, responses: { 201: one, 400: err('Invalid body or unknown permission'), 409: err('Key taken'), ...adminErrors, ...escalation } }),
    async (c) => c.json(await roles.create(c.get('admin'), c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({ method: 'patch', path: AdminPaths.role, tags, summary: 'Updates key, name, description or isDefault (one default role per tenant)', ...write, request: { params: RoleIdParam, query: TenantQuery, ...body(UpdateRoleRequest) }, responses: { 200: one, 400: err('Invalid body'), 409: err('Key taken'), ...adminErrors, ...escalation } }),
    async (c) => c.json(await roles.update(c.get('admin'), c.req.valid('param').roleId, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({ method: 'delete', path: AdminPaths.role, tags, summary: 'Deletes a role; users and groups lose it', ...write, request: { params: RoleIdParam, query: TenantQuery }, responses: { 204: { description: 'Deleted' }, ...adminErrors, ...escalation } }),
    async (c) => {
      await roles.remove(c.get('admin'), c.req.valid('param').roleId);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({ method: 'put', path: AdminPaths.rolePermissions, tags, summary: "Sets the role's permissions", ...write, request: { params: RoleIdParam, query: TenantQuery, ...body(SetRolePermissionsRequest) }, responses: { 200: one, 400: err('Invalid body or unknown permission'), ...adminErrors, ...escalation } }),
    async (c) => c.json(await roles.setPermissions(c.get('admin'), c.req.valid('param').roleId, c.req.valid('json').permissionIds), 200),
  );

  app.openapi(
    createRoute({ method: 'put', path: AdminPaths.permissionRoles, tags, summary: 'Adds one permission to many roles of the tenant', ...write, request: { params: PermissionIdParam, query: TenantQuery, ...body(AttachPermissionToRolesRequest) }, responses: { 200: json(z.array(Role), 'The roles'), 400: err('Invalid body'), ...adminErrors, ...escalation } }),
    async (c) => c.json(await roles.attachPermission(c.get('admin'), c.req.valid('param').permissionId, c.req.valid('json').roleIds), 200),
  );

  app.openapi(
    createRoute({ method: 'get', path: AdminPaths.permissions, tags, summary: 'The permission catalogue', ...read, request: { query: TenantQuery }, responses: { 200: json(z.array(Permission), 'Every permission'), ...adminErrors } }),
    async (c) => c.json(await roles.permissions(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({ method: 'post', path: AdminPaths.permissions, tags, summary: 'Adds a permission to the catalogue (super users)', ...write, request: { query: TenantQuery, ...body(CreatePermissionRequest) }, responses: { 201: json(Permission, 'The permission'), 400: err('Invalid body'), 409: err('Key taken'), ...adminErrors, ...vendor } }),
    async (c) => c.json(await roles.createPermission(c.get('admin'), c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({ method: 'patch', path: AdminPaths.permission, tags, summary: "Updates a permission's name, description or category (super users)", ...write, request: { params: PermissionIdParam, query: TenantQuery, ...body(UpdatePermissionRequest) }, responses: { 200: json(Permission, 'The permission'), 400: err('Invalid body'), ...adminErrors, ...vendor } }),
    async (c) => c.json(await roles.updatePermission(c.get('admin'), c.req.valid('param').permissionId, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({ method: 'delete', path: AdminPaths.permission, tags, summary: 'Deletes a permission that is not built in (super users)', ...write, request: { params: PermissionIdParam, query: TenantQuery }, responses: { 204: { description: 'Deleted' }, 400: err('A built-in permission'), ...adminErrors, ...vendor } }),
    async (c) => {
      await roles.deletePermission(c.get('admin'), c.req.valid('param').permissionId);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: AdminPaths.permissionCategories, tags, summary: 'The permission categories with their permission ids', ...read, request: { query: TenantQuery }, responses: { 200: json(z.array(PermissionCategory), 'Every category'), ...adminErrors } }),
    async (c) => c.json(await roles.categories(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({ method: 'post', path: AdminPaths.permissionCategories, tags, summary: 'Adds a category (super users)', ...write, request: { query: TenantQuery, ...body(CreateCategoryRequest) }, responses: { 201: json(PermissionCategory, 'The category'), 400: err('Invalid body'), ...adminErrors, ...vendor } }),
    async (c) => c.json(await roles.createCategory(c.get('admin'), c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({ method: 'patch', path: AdminPaths.permissionCategory, tags, summary: 'Renames or describes a category (super users)', ...write, request: { params: CategoryIdParam, query: TenantQuery, ...body(UpdateCategoryRequest) }, responses: { 200: json(PermissionCategory, 'The category'), 400: err('Invalid body'), ...adminErrors, ...vendor } }),
    async (c) => c.json(await roles.updateCategory(c.get('admin'), c.req.valid('param').categoryId, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({ method: 'delete', path: AdminPaths.permissionCategory, tags, summary: 'Deletes an empty category (super users)', ...write, request: { params: CategoryIdParam, query: TenantQuery }, responses: { 204: { description: 'Deleted' }, 409: err('The category still has permissions'), ...adminErrors, ...vendor } }),
    async (c) => {
      await roles.deleteCategory(c.get('admin'), c.req.valid('param').categoryId);
      return c.body(null, 204);
    },
  );

  return app;
}
