/** Groups of a tenant (migration 016). Every function takes the tenant id or a group already found in it. */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index';
import { changesOf } from '../patch';
import type { GroupsTable } from '../schema-admin';
import type { RoleRow } from './roles';

export type GroupRow = Selectable<GroupsTable>;

export function listGroups(db: Db, tenantId: string, ids?: readonly string[]): Promise<GroupRow[]> {
  let q = db.selectFrom('groups').selectAll().where('tenant_id', '=', tenantId);
  if (ids) {
    if (ids.length === 0) return Promise.resolve([]);
    q = q.where('id', 'in', ids);
  }
  return q.orderBy('name').execute();
}

export function findGroup(db: Db, tenantId: string, groupId: string): Promise<GroupRow | undefined> {
  return db.selectFrom('groups').selectAll().where('tenant_id', '=', tenantId).where('id', '=', groupId).executeTakeFirst();
}

export function findGroupByName(db: Db, tenantId: string, name: string): Promise<GroupRow | undefined> {
  return db.selectFrom('groups').selectAll().where('tenant_id', '=', tenantId).where('name', '=', name).executeTakeFirst();
}

export async function insertGroup(db: Db, row: Insertable<GroupsTable>): Promise<void> {
  await db.insertInto('groups').values(row).execute();
}

export async function updateGroup(db: Db, tenantId: string, groupId: string, patch: Updateable<GroupsTable>): Promise<void> {
  const changes = changesOf(patch);
  if (!changes) return;
  await db.updateTable('groups').set(changes).where('tenant_id', '=', tenantId).where('id', '=', groupId).execute();
}

export async function deleteGroup(db: Db, tenantId: string, groupId: string): Promise<void> {
  await db.deleteFrom('groups').where('tenant_id', '=', tenantId).where('id', '=', groupId).execute();
}

/** group id -> its roles. */
export async function rolesByGroup(db: Db, groupIds: readonly string[]): Promise<Map<string, RoleRow[]>> {
  const map = new Map<string, RoleRow[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return map;
  const rows = await db
    .selectFrom('group_roles')
    .innerJoin('roles', 'roles.id', 'group_roles.role_id')
    .selectAll('roles')
    .select('group_roles.group_id')
    .where('group_roles.group_id', 'in', groupIds)
    .orderBy('roles.key')
    .execute();
  for (const { group_id, ...role } of rows) map.get(group_id)?.push(role);
  return map;
}

/** group id -> its users. */
export async function usersByGroup(db: Db, groupIds: readonly string[]): Promise<Map<string, { id: string; name: string; email: string | null }[]>> {
  const map = new Map<string, { id: string; name: string; email: string | null }[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return map;
  const rows = await db
    .selectFrom('group_users')
    .innerJoin('users', 'users.id', 'group_users.user_id')
    .select(['group_users.group_id', 'users.id', 'users.name', 'users.email'])
    .where('group_users.group_id', 'in', groupIds)
    .orderBy('users.name')
    .execute();
  for (const { group_id, ...user } of rows) map.get(group_id)?.push(user);
  return map;
}

export async function addGroupRoles(db: Db, groupId: string, roleIds: readonly string[]): Promise<void> {
  for (const role_id of roleIds) {
    await db.insertInto('group_roles').values({ group_id: groupId, role_id }).onConflict((oc) => oc.columns(['group_id', 'role_id']).doNothing()).execute();
  }
}

export async function removeGroupRoles(db: Db, groupId: string, roleIds: readonly string[]): Promise<void> {
  if (roleIds.length === 0) return;
  await db.deleteFrom('group_roles').where('group_id', '=', groupId).where('role_id', 'in', roleIds).execute();
}

export async function addGroupUsers(db: Db, groupId: string, userIds: readonly string[], now: number): Promise<void> {
  for (const user_id of userIds) {
    await db.insertInto('group_users').values({ group_id: groupId, user_id, created_at: now }).onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing()).execute();
  }
}

export async function removeGroupUsers(db: Db, groupId: string, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.deleteFrom('group_users').where('group_id', '=', groupId).where('user_id', 'in', userIds).execute();
}

/** Roles a user holds in the tenant through its groups (added to their own roles by loadAuthorization). */
export function listGroupRolesOfUser(db: Db, userId: string, tenantId: string): Promise<RoleRow[]> {
  return db
    .selectFrom('group_users')
    .innerJoin('groups', 'groups.id', 'group_users.group_id')
    .innerJoin('group_roles', 'group_roles.group_id', 'groups.id')
    .innerJoin('roles', 'roles.id', 'group_roles.role_id')
    .selectAll('roles')
    .distinct()
    .where('group_users.user_id', '=', userId)
    .where('groups.tenant_id', '=', tenantId)
    .where('roles.tenant_id', '=', tenantId)
    .execute();
}

/** The ids among `userIds` that are members (any state) of the tenant. */
export async function tenantMemberIds(db: Db, tenantId: string, userIds: readonly string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db.selectFrom('user_tenants').select('user_id').where('tenant_id', '=', tenantId).where('user_id', 'in', userIds).execute();
  return rows.map((r) => r.user_id);
}
