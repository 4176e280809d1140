import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index';
import type { InvitationsTable } from '../schema';

export type InvitationRow = Selectable<InvitationsTable>;

export async function insertInvitation(db: Db, row: Insertable<InvitationsTable>): Promise<void> {
  await db.insertInto('invitations').values(row).execute();
}

export function findInvitationByToken(db: Db, tokenHash: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export function findInvitation(db: Db, tenantId: string, userId: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
}

/** The user's newest invitation not yet accepted (expired ones included: a resend revives them). */
export function findLatestOpenInvitation(db: Db, userId: string): Promise<InvitationRow | undefined> {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('user_id', '=', userId)
    .where('accepted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A new token (and code) for an invitation: the old link dies, attempts start over. */
export async function reissueInvitation(db: Db, id: string, patch: Pick<Updateable<InvitationsTable>, 'token_hash' | 'code_hash' | 'sent_at' | 'expires_at' | 'role_ids' | 'invited_by'>): Promise<void> {
  await db.updateTable('invitations').set({ ...patch, attempts: 0, accepted_at: null }).where('id', '=', id).execute();
}

/**
 * Reserves one code attempt on a live invitation BEFORE the code is compared: one atomic statement
 * (same SQL on both dialects), so parallel guesses never get more than `max` comparisons.
 */
export async function reserveInvitationAttempt(db: Db, id: string, now: number, max: number): Promise<boolean> {
  const res = await db
    .updateTable('invitations')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', max)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Single use: only the first caller flips accepted_at of a live invitation with this token. */
export async function markInvitationAccepted(db: Db, id: string, tokenHash: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('invitations')
    .set({ accepted_at: now })
    .where('id', '=', id)
    .where('token_hash', '=', tokenHash)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Membership in a tenant; a no-op when it already exists. */
export async function joinTenant(db: Db, userId: string, tenantId: string, now: number): Promise<void> {
  await db.insertInto('user_tenants').values({ user_id: userId, tenant_id: tenantId, created_at: now }).onConflict((oc) => oc.columns(['user_id', 'tenant_id']).doNothing()).execute();
}

/** Gives the user these roles in the tenant (roles already held stay as they are). */
export async function grantRoles(db: Db, userId: string, tenantId: string, roleIds: readonly string[]): Promise<void> {
  for (const roleId of roleIds) {
    await db.insertInto('user_roles').values({ user_id: userId, tenant_id: tenantId, role_id: roleId }).onConflict((oc) => oc.columns(['user_id', 'tenant_id', 'role_id']).doNothing()).execute();
  }
}

/** The ids among `roleIds` that are roles of this tenant. */
export async function tenantRoleIds(db: Db, tenantId: string, roleIds: readonly string[]): Promise<string[]> {
  if (roleIds.length === 0) return [];
  const rows = await db.selectFrom('roles').select('id').where('tenant_id', '=', tenantId).where('id', 'in', roleIds).execute();
  return rows.map((r) => r.id);
}

/** The tenant's default roles (granted when an invitation names none). */
export async function defaultRoleIds(db: Db, tenantId: string): Promise<string[]> {
  const rows = await db.selectFrom('roles').select('id').where('tenant_id', '=', tenantId).where('is_default', '=', 1).orderBy('key').execute();
  return rows.map((r) => r.id);
}
