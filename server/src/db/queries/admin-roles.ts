/**
 * Roles of a tenant and the permission catalogue, for admins. Role functions take the tenant id and
 * never touch another tenant's roles; the catalogue (permissions, categories) is shared by all tenants.
 */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index';
import { changesOf } from '../patch';
import type { PermissionsTable, RolesTable } from '../schema';
import type { PermissionCategoriesTable } from '../schema-admin';
import type { PermissionRow, RoleRow } from './roles';

export type CategoryRow = Selectable<PermissionCategoriesTable>;

export function listTenantRoles(db: Db, tenantId: string): Promise<RoleRow[]> {
  return db.selectFrom('roles').selectAll().where('tenant_id', '=', tenantId).orderBy('key').execute();
}

export function findTenantRole(db: Db, tenantId: string, roleId: string): Promise<RoleRow | undefined> {
  return db.selectFrom('roles').selectAll().where('tenant_id', '=', tenantId).where('id', '=', roleId).executeTakeFirst();
}

export function findTenantRolesByIds(db: Db, tenantId: string, roleIds: readonly string[]): Promise<RoleRow[]> {
  if (roleIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('roles').selectAll().where('tenant_id', '=', tenantId).where('id', 'in', roleIds).execute();
}

export async function updateTenantRole(db: Db, tenantId: string, roleId: string, patch: Updateable<RolesTable>): Promise<void> {
  const changes = changesOf(patch);
  if (!changes) return;
  await db.updateTable('roles').set(changes).where('tenant_id', '=', tenantId).where('id', '=', roleId).execute();
}

/** Only one default role per tenant: the others stop being default. */
export async function clearDefaultRoles(db: Db, tenantId: string, exceptRoleId: string): Promise<void> {
  await db.updateTable('roles').set({ is_default: 0 }).where('tenant_id', '=', tenantId).where('id', '!=', exceptRoleId).where('is_default', '=', 1).execute();
}

export async function deleteTenantRole(db: Db, tenantId: string, roleId: string): Promise<void> {
  await db.deleteFrom('roles').where('tenant_id', '=', tenantId).where('id', '=', roleId).execute();
}

/** role id -> permission ids, for these roles. */
export async function permissionIdsByRole(db: Db, roleIds: readonly string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>(roleIds.map((id) => [id, []]));
  if (roleIds.length === 0) return map;
  const rows = await db.selectFrom('role_permissions').select(['role_id', 'permission_id']).where('role_id', 'in', roleIds).orderBy('permission_id').execute();
  for (const row of rows) map.get(row.role_id)?.push(row.permission_id);
  return map;
}

/** role id -> number of users holding it directly. */
export async function userCountsByRole(db: Db, tenantId: string, roleIds: readonly string[]): Promise<Map<string, number>> {
  if (roleIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('user_roles')
    .select(['role_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('tenant_id', '=', tenantId)
    .where('role_id', 'in', roleIds)
    .groupBy('role_id')
    .execute();
  return new Map(rows.map((r) => [r.role_id, Number(r.n)]));
}

export async function replaceRolePermissions(db: Db, roleId: string, permissionIds: readonly string[]): Promise<void> {
  await db.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
  if (permissionIds.length > 0) await db.insertInto('role_permissions').values(permissionIds.map((permission_id) => ({ role_id: roleId, permission_id }))).execute();
}

export async function addRolePermission(db: Db, roleId: string, permissionId: string): Promise<void> {
  await db.insertInto('role_permissions').values({ role_id: roleId, permission_id: permissionId }).onConflict((oc) => oc.columns(['role_id', 'permission_id']).doNothing()).execute();
}

// ---- the catalogue ----

export function listPermissions(db: Db): Promise<PermissionRow[]> {
  return db.selectFrom('permissions').selectAll().orderBy('key').execute();
}

export function findPermission(db: Db, id: string): Promise<PermissionRow | undefined> {
  return db.selectFrom('permissions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findPermissionsByIds(db: Db, ids: readonly string[]): Promise<PermissionRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('permissions').selectAll().where('id', 'in', ids).execute();
}

export function findPermissionByKey(db: Db, key: string): Promise<PermissionRow | undefined> {
  return db.selectFrom('permissions').selectAll().where('key', '=', key).executeTakeFirst();
}

export async function insertPermission(db: Db, row: Insertable<PermissionsTable>): Promise<void> {
  await db.insertInto('permissions').values(row).execute();
}

export async function updatePermission(db: Db, id: string, patch: Updateable<PermissionsTable>): Promise<void> {
  const changes = changesOf(patch);
  if (!changes) return;
  await db.updateTable('permissions').set(changes).where('id', '=', id).execute();
}

export async function deletePermission(db: Db, id: string): Promise<void> {
  await db.deleteFrom('permissions').where('id', '=', id).execute();
}

export function listCategories(db: Db): Promise<CategoryRow[]> {
  return db.selectFrom('permission_categories').selectAll().orderBy('name').execute();
}

export function findCategory(db: Db, id: string): Promise<CategoryRow | undefined> {
  return db.selectFrom('permission_categories').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Adds the categories the catalogue names but the table lacks (ids kept); safe on every start. */
export async function ensureCategories(db: Db, rows: Insertable<PermissionCategoriesTable>[]): Promise<void> {
  for (const row of rows) await db.insertInto('permission_categories').values(row).onConflict((oc) => oc.column('id').doNothing()).execute();
}

export async function insertCategory(db: Db, row: Insertable<PermissionCategoriesTable>): Promise<void> {
  await db.insertInto('permission_categories').values(row).execute();
}

export async function updateCategory(db: Db, id: string, patch: Updateable<PermissionCategoriesTable>): Promise<void> {
  const changes = changesOf(patch);
  if (!changes) return;
  await db.updateTable('permission_categories').set(changes).where('id', '=', id).execute();
}

export async function deleteCategory(db: Db, id: string): Promise<void> {
  await db.deleteFrom('permission_categories').where('id', '=', id).execute();
}

export async function countPermissionsInCategory(db: Db, categoryId: string): Promise<number> {
  const row = await db.selectFrom('permissions').select((eb) => eb.fn.countAll<number | string>().as('n')).where('category_id', '=', categoryId).executeTakeFirst();
  return Number(row?.n ?? 0);
}
