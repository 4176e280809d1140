/** Direct entitlement grants: a feature for a tenant, or for one user of it (issue 13, migration 028). */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '..';
import type { EntitlementGrantsTable } from '../schema-billing';

export type EntitlementGrantRow = Selectable<EntitlementGrantsTable> & { feature_key: string };

function selectGrants(db: Db) {
  return db
    .selectFrom('entitlement_grants')
    .innerJoin('features', 'features.id', 'entitlement_grants.feature_id')
    .selectAll('entitlement_grants')
    .select('features.key as feature_key');
}

/** Grants, newest first, optionally of one tenant and (within it) one user. */
export function listGrants(db: Db, filter: { tenantId?: string; userId?: string; limit: number }): Promise<EntitlementGrantRow[]> {
  let query = selectGrants(db);
  if (filter.tenantId) query = query.where('entitlement_grants.tenant_id', '=', filter.tenantId);
  if (filter.userId) query = query.where('entitlement_grants.user_id', '=', filter.userId);
  return query.orderBy('entitlement_grants.created_at', 'desc').orderBy('entitlement_grants.id', 'desc').limit(filter.limit).execute();
}

export function findGrant(db: Db, id: string): Promise<EntitlementGrantRow | undefined> {
  return selectGrants(db).where('entitlement_grants.id', '=', id).executeTakeFirst();
}

export async function insertGrant(db: Db, row: Insertable<EntitlementGrantsTable>): Promise<void> {
  await db.insertInto('entitlement_grants').values(row).execute();
}

export async function deleteGrant(db: Db, id: string): Promise<boolean> {
  const res = await db.deleteFrom('entitlement_grants').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
