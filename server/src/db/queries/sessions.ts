import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { RefreshTokensTable, SessionsTable } from '../schema';

export type SessionRow = Selectable<SessionsTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;

export async function insertSession(db: Db, row: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

export function findSession(db: Db, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function touchSession(db: Db, id: string, now: number, tenantId?: string): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: now, ...(tenantId ? { tenant_id: tenantId } : {}) }).where('id', '=', id).execute();
}

export async function setSessionTenant(db: Db, id: string, tenantId: string): Promise<void> {
  await db.updateTable('sessions').set({ tenant_id: tenantId }).where('id', '=', id).execute();
}

export async function revokeSession(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

export async function insertRefreshToken(db: Db, row: Insertable<RefreshTokensTable>): Promise<void> {
  await db.insertInto('refresh_tokens').values(row).execute();
}

export function findRefreshToken(db: Db, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  return db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * Marks a refresh token used. Returns false when another request used it first: the conditional
 * update is the lock, so two processes can never both rotate the same token.
 */
export async function markRefreshTokenUsed(db: Db, tokenHash: string, now: number): Promise<boolean> {
  const res = await db.updateTable('refresh_tokens').set({ used_at: now }).where('token_hash', '=', tokenHash).where('used_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Revokes every live session of a user, except `keepSessionId` (the caller's own, on a password change). */
export async function revokeUserSessions(db: Db, userId: string, now: number, keepSessionId?: string): Promise<number> {
  let query = db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepSessionId) query = query.where('id', '!=', keepSessionId);
  const res = await query.executeTakeFirst();
  return Number(res.numUpdatedRows);
}
