import type { Expression, Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import { precompiled, type Params } from '../precompiled';
import type { PermissionsTable, RolesTable } from '../schema';

export type RoleRow = Selectable<RolesTable>;
export type PermissionRow = Selectable<PermissionsTable>;

/** Adds catalogue entries that are missing; existing rows (and their ids) are kept. */
export async function ensurePermissions(db: Db, rows: Insertable<PermissionsTable>[]): Promise<void> {
  for (const row of rows) {
    await db.insertInto('permissions').values(row).onConflict((oc) => oc.column('key').doNothing()).execute();
  }
}

export function listPermissionsByKeys(db: Db, keys: readonly string[]): Promise<PermissionRow[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return db.selectFrom('permissions').selectAll().where('key', 'in', keys).execute();
}

export async function insertRole(db: Db, row: Insertable<RolesTable>, permissionIds: string[]): Promise<void> {
  await db.insertInto('roles').values(row).execute();
  if (permissionIds.length) {
    await db.insertInto('role_permissions').values(permissionIds.map((permission_id) => ({ role_id: row.id, permission_id }))).execute();
  }
}

export async function assignRole(db: Db, userId: string, tenantId: string, roleId: string): Promise<void> {
  await db.insertInto('user_roles').values({ user_id: userId, tenant_id: tenantId, role_id: roleId }).execute();
}

export function findRoleByKey(db: Db, tenantId: string, key: string): Promise<RoleRow | undefined> {
  return db.selectFrom('roles').selectAll().where('tenant_id', '=', tenantId).where('key', '=', key).executeTakeFirst();
}

/** A user's roles in one tenant. */
export function listUserRoles(db: Db, userId: string, tenantId: string): Promise<RoleRow[]> {
  return db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .selectAll('roles')
    .where('user_roles.user_id', '=', userId)
    .where('user_roles.tenant_id', '=', tenantId)
    .orderBy('roles.key')
    .execute();
}

/** Distinct permissions granted by the given roles. */
export function listRolePermissions(db: Db, roleIds: readonly string[]): Promise<PermissionRow[]> {
  if (roleIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('role_permissions')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .selectAll('permissions')
    .distinct()
    .where('role_permissions.role_id', 'in', roleIds)
    .orderBy('permissions.key')
    .execute();
}

/** The ids of a user's roles in one tenant: their own and their groups' (the group's role must belong to the tenant). */
export async function listHeldRoleIds(db: Db, userId: string, tenantId: string): Promise<string[]> {
  return (await heldRoleIds(db, { userId, tenantId })).rows.map((r) => r.role_id);
}

const heldRoleIds = precompiled((db, p: Params<{ userId: string; tenantId: string }>) => heldRoleIdsQuery(db, p.userId, p.tenantId));

/**
 * The statement of listHeldRoleIds, for a user and a tenant given as values or as columns of an
 * enclosing query (the refresh reads them with its session: db/queries/sessions.ts).
 */
export function heldRoleIdsQuery(db: Db, userId: string | Expression<string>, tenantId: string | Expression<string>) {
  return db
    .selectFrom('user_roles')
    .select('user_roles.role_id')
    .where('user_roles.user_id', '=', userId)
    .where('user_roles.tenant_id', '=', tenantId)
    .union(
      db
        .selectFrom('group_users')
        .innerJoin('groups', 'groups.id', 'group_users.group_id')
        .innerJoin('group_roles', 'group_roles.group_id', 'groups.id')
        .innerJoin('roles', 'roles.id', 'group_roles.role_id')
        .select('group_roles.role_id')
        .where('group_users.user_id', '=', userId)
        .where('groups.tenant_id', '=', tenantId)
        .where('roles.tenant_id', '=', tenantId),
    );
}

/** One row of `listRoleGrantRows`: a role, with one permission it grants (null when it grants none). */
export interface RoleGrantRow {
  role_id: string;
  role_key: string;
  role_name: string;
  role_description: string | null;
  permission_id: string | null;
  permission_key: string | null;
  permission_name: string | null;
  permission_category_id: string | null;
}

/** The given roles, each joined with the permissions it grants, ordered by permission key. */
export async function listRoleGrantRows(db: Db, roleIds: readonly string[]): Promise<RoleGrantRow[]> {
  if (roleIds.length === 0) return [];
  // One role (the cache's loads): compiled once.
  if (roleIds.length === 1) return (await roleGrantRows(db, { roleId: roleIds[0]! })).rows;
  return roleGrantRowsQuery(db, roleIds).execute();
}

const roleGrantRows = precompiled((db, p: Params<{ roleId: string }>) => roleGrantRowsQuery(db, [p.roleId]));

function roleGrantRowsQuery(db: Db, roleIds: readonly string[]) {
  return db
    .selectFrom('roles')
    .leftJoin('role_permissions', 'role_permissions.role_id', 'roles.id')
    .leftJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .select([
      'roles.id as role_id',
      'roles.key as role_key',
      'roles.name as role_name',
      'roles.description as role_description',
      'permissions.id as permission_id',
      'permissions.key as permission_key',
      'permissions.name as permission_name',
      'permissions.category_id as permission_category_id',
    ])
    // One role (the cache's loads) by `=`: a fixed text, which PostgreSQL prepares once (db/pg-prepared.ts).
    .where('roles.id', roleIds.length === 1 ? '=' : 'in', roleIds.length === 1 ? roleIds[0]! : roleIds)
    .orderBy('permissions.key');
}
