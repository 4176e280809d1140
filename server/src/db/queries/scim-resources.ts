/** SQL of the users and groups SCIM provisioned (migration 029 `scim_resources`), always within one tenant. */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index';
import type { ScimResourcesTable } from '../schema-scim';

export type ScimResourceRow = Selectable<ScimResourcesTable>;
export type ScimResourceType = 'User' | 'Group';

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

/** Most rows a narrowed list reads (a narrowing is on a key unique in the tenant, so one row in practice). */
const NARROWED_LIMIT = 1000;

/**
 * A tenant's live resources of a type: a user whose membership of the tenant still exists, a group
 * the tenant still has (a row left behind by a change made another way is no SCIM resource).
 */
function liveResources(db: Db, tenantId: string, type: ScimResourceType) {
  const q = db.selectFrom('scim_resources').where('scim_resources.tenant_id', '=', tenantId).where('scim_resources.resource_type', '=', type);
  return type === 'User'
    ? q.where((eb) => eb.exists(eb.selectFrom('user_tenants').select('user_tenants.user_id').whereRef('user_tenants.user_id', '=', 'scim_resources.resource_id').where('user_tenants.tenant_id', '=', tenantId)))
    : q.where((eb) => eb.exists(eb.selectFrom('groups').select('groups.id').whereRef('groups.id', '=', 'scim_resources.resource_id').where('groups.tenant_id', '=', tenantId)));
}

/** How many live resources of a type the tenant has. */
export async function countScimResources(db: Db, tenantId: string, type: ScimResourceType): Promise<number> {
  const row = await liveResources(db, tenantId, type).select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** One page of a tenant's live resources of a type, oldest first (`offset` 0-based). */
export function pageScimResources(db: Db, tenantId: string, type: ScimResourceType, offset: number, limit: number): Promise<ScimResourceRow[]> {
  if (limit <= 0) return Promise.resolve([]);
  return liveResources(db, tenantId, type).selectAll('scim_resources').orderBy('scim_resources.created_at').orderBy('scim_resources.resource_id').limit(limit).offset(offset).execute();
}

/** The query of listScimResources (its plan is checked to use the column's index). */
export function narrowedScimResources(db: Db, tenantId: string, type: ScimResourceType, narrowing: NonNullable<ScimNarrowing>) {
  return liveResources(db, tenantId, type)
    .selectAll('scim_resources')
    .where(`scim_resources.${narrowing.column}`, '=', narrowing.value)
    .orderBy('scim_resources.created_at')
    .orderBy('scim_resources.resource_id')
    .limit(NARROWED_LIMIT);
}

/** The tenant's live resources of a type holding one value in an indexed column (primary key, scim_resources_name, scim_resources_external_id), oldest first. */
export function listScimResources(db: Db, tenantId: string, type: ScimResourceType, narrowing: NonNullable<ScimNarrowing>): Promise<ScimResourceRow[]> {
  return narrowedScimResources(db, tenantId, type, narrowing).execute();
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
 * Members of groups, by group. `display` is left out (null): it is optional and read-only (RFC 7643
 * section 4.2), and a client that PATCHes members compares the members it gets back with those it sent.
 */
export async function membersOfGroups(db: Db, groupIds: readonly string[]): Promise<Map<string, { id: string; display: string | null }[]>> {
  const out = new Map<string, { id: string; display: string | null }[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return out;
  const rows = await db
    .selectFrom('group_users')
    .innerJoin('users', 'users.id', 'group_users.user_id')
    .select(['group_users.group_id as group_id', 'users.id as id'])
    .where('group_users.group_id', 'in', groupIds)
    .orderBy('group_users.created_at')
    .orderBy('users.id')
    .execute();
  for (const r of rows) out.get(r.group_id)?.push({ id: r.id, display: null });
  return out;
}

/** Members of one group (see membersOfGroups). */
export async function membersOfGroup(db: Db, groupId: string): Promise<{ id: string; display: string | null }[]> {
  return (await membersOfGroups(db, [groupId])).get(groupId) ?? [];
}
