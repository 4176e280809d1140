/** SQL of SCIM provisioning connections (migration 029). */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { ScimConnectionsTable } from '../schema-scim';

export type ScimConnectionRow = Selectable<ScimConnectionsTable>;

export async function insertScimConnection(db: Db, row: Insertable<ScimConnectionsTable>): Promise<void> {
  await db.insertInto('scim_connections').values(row).execute();
}

export function findScimConnectionById(db: Db, id: string): Promise<ScimConnectionRow | undefined> {
  return db.selectFrom('scim_connections').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The connection, only when it is one of `tenantId`'s. */
export function findTenantScimConnection(db: Db, tenantId: string, id: string): Promise<ScimConnectionRow | undefined> {
  return db.selectFrom('scim_connections').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

/** A tenant's connections, oldest first. */
export function listScimConnections(db: Db, tenantId: string): Promise<ScimConnectionRow[]> {
  return db.selectFrom('scim_connections').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').execute();
}

/** Users and groups each connection provisioned. */
export async function scimResourceCounts(db: Db, connectionIds: readonly string[]): Promise<Map<string, { users: number; groups: number }>> {
  const out = new Map<string, { users: number; groups: number }>(connectionIds.map((id) => [id, { users: 0, groups: 0 }]));
  if (connectionIds.length === 0) return out;
  const rows = await db
    .selectFrom('scim_resources')
    .select((eb) => ['connection_id', 'resource_type', eb.fn.countAll<number | string>().as('n')])
    .where('connection_id', 'in', connectionIds)
    .groupBy(['connection_id', 'resource_type'])
    .execute();
  for (const r of rows) {
    const counts = out.get(r.connection_id);
    if (!counts) continue;
    if (r.resource_type === 'User') counts.users = Number(r.n);
    else if (r.resource_type === 'Group') counts.groups = Number(r.n);
  }
  return out;
}

export async function updateScimConnectionToken(db: Db, id: string, tokenHash: string, rotatedAt: number): Promise<void> {
  await db.updateTable('scim_connections').set({ token_hash: tokenHash, rotated_at: rotatedAt }).where('id', '=', id).execute();
}

export async function deleteScimConnection(db: Db, id: string): Promise<void> {
  await db.deleteFrom('scim_connections').where('id', '=', id).execute();
}

/** The ids of the users or groups a connection provisioned. */
export async function scimResourceIdsOfConnection(db: Db, connectionId: string, resourceType: 'User' | 'Group'): Promise<string[]> {
  const rows = await db.selectFrom('scim_resources').select('resource_id').where('connection_id', '=', connectionId).where('resource_type', '=', resourceType).execute();
  return rows.map((r) => r.resource_id);
}

/** The users a connection provisioned, with whether SCIM created their account (only those accounts may SCIM delete). */
export async function scimUsersOfConnection(db: Db, connectionId: string): Promise<{ userId: string; createdAccount: boolean }[]> {
  const rows = await db.selectFrom('scim_resources').select(['resource_id', 'created_account']).where('connection_id', '=', connectionId).where('resource_type', '=', 'User').execute();
  return rows.map((r) => ({ userId: r.resource_id, createdAccount: Number(r.created_account) === 1 }));
}

/** Hands a connection's users and groups back to the portal (managed by Gatehouse again), before the connection goes without them. */
export async function releaseScimResources(db: Db, tenantId: string, connectionId: string): Promise<void> {
  await db
    .updateTable('user_tenants')
    .set({ managed_by: 'frontegg' })
    .where('tenant_id', '=', tenantId)
    .where('user_id', 'in', (eb) => eb.selectFrom('scim_resources').select('resource_id').where('connection_id', '=', connectionId).where('resource_type', '=', 'User'))
    .execute();
  await db
    .updateTable('groups')
    .set({ managed_by: null })
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', (eb) => eb.selectFrom('scim_resources').select('resource_id').where('connection_id', '=', connectionId).where('resource_type', '=', 'Group'))
    .execute();
}
