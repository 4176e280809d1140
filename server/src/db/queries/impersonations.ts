import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { ImpersonationsTable } from '../schema';

export type ImpersonationRow = Selectable<ImpersonationsTable>;

export async function insertImpersonation(db: Db, row: Insertable<ImpersonationsTable>): Promise<void> {
  await db.insertInto('impersonations').values(row).execute();
}

export function findImpersonationByToken(db: Db, tokenHash: string): Promise<ImpersonationRow | undefined> {
  return db.selectFrom('impersonations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Single use: only the first caller spends a live token. */
export async function consumeImpersonationToken(db: Db, id: string, now: number): Promise<boolean> {
  const res = await db.updateTable('impersonations').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Records the session an exchanged token became, and where it was exchanged from. */
export async function linkImpersonationSession(db: Db, id: string, sessionId: string, client: { ip: string | null; userAgent: string | null }): Promise<void> {
  await db.updateTable('impersonations').set({ session_id: sessionId, ip: client.ip, user_agent: client.userAgent?.slice(0, 512) ?? null }).where('id', '=', id).execute();
}

/** Who acts in a session, when it is an impersonation session. */
export function findImpersonationBySession(db: Db, sessionId: string): Promise<Pick<ImpersonationRow, 'id' | 'impersonator_id' | 'tenant_id'> | undefined> {
  return db.selectFrom('impersonations').select(['id', 'impersonator_id', 'tenant_id']).where('session_id', '=', sessionId).executeTakeFirst();
}

/** The tenant's impersonation records, newest first (for audits). */
export function listTenantImpersonations(db: Db, tenantId: string, limit = 100): Promise<ImpersonationRow[]> {
  return db.selectFrom('impersonations').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at', 'desc').limit(limit).execute();
}
