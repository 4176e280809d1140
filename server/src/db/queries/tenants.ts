import type { Expression, Insertable, Selectable, SelectQueryBuilder } from 'kysely';
import type { Db } from '../index';
import { precompiled, type Params } from '../precompiled';
import type { Database, TenantsTable } from '../schema';

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

/**
 * Migration 016: a membership an admin disabled or locked, or a temporary one past its expiry, does
 * not count: the user cannot sign in to, switch to or act in that tenant (their other tenants are untouched).
 */
function activeMemberships<QB extends SelectQueryBuilder<Database, 'user_tenants', any>>(qb: QB, now: number): QB {
  return qb
    .where('user_tenants.disabled_at', 'is', null)
    .where('user_tenants.admin_locked_at', 'is', null)
    .where((eb) => eb.or([eb('user_tenants.expires_at', 'is', null), eb('user_tenants.expires_at', '>', now)])) as QB;
}

/** Tenants of a user, oldest membership first (the first is the fallback active tenant); active memberships only. */
export async function listUserTenants(db: Db, userId: string, now = Date.now()): Promise<TenantRow[]> {
  return (await userTenants(db, { userId, now })).rows;
}

const userTenants = precompiled((db, p: Params<{ userId: string; now: number }>) =>
  userTenantsQuery(db, p.userId, p.now).selectAll('tenants').select('user_tenants.created_at as joined_at'),
);

/**
 * The statement of listUserTenants without its columns, for a user given as a value or as a column
 * of an enclosing query (the refresh reads the tenant ids with its session: db/queries/sessions.ts).
 */
export function userTenantsQuery(db: Db, userId: string | Expression<string>, now: number) {
  return activeMemberships(db.selectFrom('user_tenants').innerJoin('tenants', 'tenants.id', 'user_tenants.tenant_id').where('user_tenants.user_id', '=', userId), now)
    .orderBy('user_tenants.created_at', 'asc')
    .orderBy('tenants.id', 'asc');
}

/** True when the user is an active member of the tenant (see activeMemberships). */
export async function isMember(db: Db, userId: string, tenantId: string, now = Date.now()): Promise<boolean> {
  const row = await activeMemberships(db.selectFrom('user_tenants').select('tenant_id').where('user_id', '=', userId).where('tenant_id', '=', tenantId), now).executeTakeFirst();
  return Boolean(row);
}

/** True when the user's membership of the tenant is a temporary one whose end has come. */
export async function isMembershipExpired(db: Db, userId: string, tenantId: string, now: number): Promise<boolean> {
  const row = await db.selectFrom('user_tenants').select('expires_at').where('user_id', '=', userId).where('tenant_id', '=', tenantId).executeTakeFirst();
  return membershipEnded(row?.expires_at ?? null, now);
}

/** The rule of activeMemberships for one expiry: a temporary membership ends at `expires_at`. */
export function membershipEnded(expiresAt: number | null, now: number): boolean {
  return expiresAt !== null && expiresAt <= now;
}

/** True when the user has any membership row at all, active or not. */
export async function hasAnyMembership(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('user_tenants').select('tenant_id').where('user_id', '=', userId).limit(1).executeTakeFirst();
  return Boolean(row);
}

/** True when a membership row exists, active or not (adding one again would collide). */
export async function hasMembership(db: Db, userId: string, tenantId: string): Promise<boolean> {
  const row = await db.selectFrom('user_tenants').select('tenant_id').where('user_id', '=', userId).where('tenant_id', '=', tenantId).executeTakeFirst();
  return Boolean(row);
}
