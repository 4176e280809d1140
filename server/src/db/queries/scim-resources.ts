/** SQL of the users and groups SCIM provisioned (migration 029 `scim_resources`), always within one tenant. */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index';
import type { ScimResourcesTable } from '../schema-scim';

export type ScimResourceRow = Selectable<ScimResourcesTable>;
export type ScimResourceType = 'User' | 'Group';

/** Most rows one unfiltered scan reads (a tenant's SCIM users or groups). */
export const SCIM_SCAN_LIMIT = 20_000;

export async function insertScimResource(db: Db, row: Insertable<ScimResourcesTable>): Promise<void> {
  await db.insertInto('scim_resources').values(row).execute();
}

export function findScimResource(db: Db, tenantId: string, type: ScimResourceType, id: string): Promise<ScimResourceRow | undefined> {
  return db.selectFrom('scim_resources').selectAll().where('tenant_id', '=', tenantId).where('resource_type', '=', type).where('resource_id', '=', id).executeTakeFirst();
}

/** The resource of the tenant holding this name (userName or displayName, any case), if any. */
export function findScimResourceByName(db: Db, tenantId: string, type: ScimResourceType, name: string): Promise<ScimResourceRow | undefined> {
  return db.selectFrom('scim_resources').selectAll().where('tenant_id', '=', tenantId).where('resource_type', '=', type).where('name_key', '=', name.toLowerCase()).executeTakeFirst();
}

/** Narrowing of a list by one equality the filter implies (the rest is matched in memory). */
export type ScimNarrowing = { column: 'resource_id' | 'name_key' | 'external_id'; value: string } | null;

/** A tenant's resources of a type, oldest first, narrowed when the filter allows. */
export function listScimResources(db: Db, tenantId: string, type: ScimResourceType, narrowing: ScimNarrowing): Promise<ScimResourceRow[]> {
  let q = db.selectFrom('scim_resources').selectAll().where('tenant_id', '=', tenantId).where('resource_type', '=', type);
  if (narrowing) q = q.where(narrowing.column, '=', narrowing.value);
  return q.orderBy('created_at').orderBy('resource_id').limit(SCIM_SCAN_LIMIT).execute();
}

export async function updateScimResource(db: Db, tenantId: string, type: ScimResourceType, id: string, patch: Updateable<ScimResourcesTable>): Promise<void> {
  await db.updateTable('scim_resources').set(patch).where('tenant_id', '=', tenantId).where('resource_type', '=', type).where('resource_id', '=', id).execute();
}

export async function deleteScimResource(db: Db, tenantId: string, type: ScimResourceType, id: string): Promise<void> {
  await db.deleteFrom('scim_resources').where('tenant_id', '=', tenantId).where('resource_type', '=', type).where('resource_id', '=', id).execute();
}

/** Sets who manages a membership: 'scim2' while SCIM provisions it. */
export async function setMembershipManagedBy(db: Db, tenantId: string, userId: string, managedBy: 'scim2' | 'frontegg'): Promise<void> {
  await db.updateTable('user_tenants').set({ managed_by: managedBy }).where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
}

/** The tenant's groups of these users (direct membership), by user. */
export async function groupsOfUsers(db: Db, tenantId: string, userIds: readonly string[]): Promise<Map<string, { id: string; displayName: string }[]>> {
  const out = new Map<string, { id: string; displayName: string }[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom('group_users')
    .innerJoin('groups', 'groups.id', 'group_users.group_id')
    .select(['group_users.user_id as user_id', 'groups.id as id', 'groups.name as name'])
    .where('groups.tenant_id', '=', tenantId)
    .where('group_users.user_id', 'in', userIds)
    .orderBy('groups.name')
    .execute();
  for (const r of rows) out.get(r.user_id)?.push({ id: r.id, displayName: r.name });
  return out;
}

/**
 * Members of a group. `display` is left out (null): it is optional and read-only (RFC 7643 section
 * 4.2), and a client that PATCHes members compares the members it gets back with those it sent.
 */
export async function membersOfGroup(db: Db, groupId: string): Promise<{ id: string; display: string | null }[]> {
  const rows = await db
    .selectFrom('group_users')
    .innerJoin('users', 'users.id', 'group_users.user_id')
    .select(['users.id as id'])
    .where('group_users.group_id', '=', groupId)
    .orderBy('group_users.created_at')
    .orderBy('users.id')
    .execute();
  return rows.map((r) => ({ id: r.id, display: null }));
}
