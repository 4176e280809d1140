import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { TenantsTable } from '../schema';

export type TenantRow = Selectable<TenantsTable> & { joined_at?: number };

export async function insertTenant(db: Db, row: Insertable<TenantsTable>): Promise<void> {
  await db.insertInto('tenants').values(row).execute();
}

export function findTenant(db: Db, id: string): Promise<Selectable<TenantsTable> | undefined> {
  return db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function addUserToTenant(db: Db, userId: string, tenantId: string, now: number): Promise<void> {
  await db.insertInto('user_tenants').values({ user_id: userId, tenant_id: tenantId, created_at: now }).execute();
}

/** Tenants of a user, oldest membership first (the first is the fallback active tenant). */
export function listUserTenants(db: Db, userId: string): Promise<TenantRow[]> {
  return db
    .selectFrom('user_tenants')
    .innerJoin('tenants', 'tenants.id', 'user_tenants.tenant_id')
    .selectAll('tenants')
    .select('user_tenants.created_at as joined_at')
    .where('user_tenants.user_id', '=', userId)
    .orderBy('user_tenants.created_at', 'asc')
    .orderBy('tenants.id', 'asc')
    .execute();
}

export async function isMember(db: Db, userId: string, tenantId: string): Promise<boolean> {
  const row = await db.selectFrom('user_tenants').select('tenant_id').where('user_id', '=', userId).where('tenant_id', '=', tenantId).executeTakeFirst();
  return Boolean(row);
}
