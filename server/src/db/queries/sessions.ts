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

/**
 * The session, with when its user's membership of `tenantId` ends (`membership_expires_at`: null when
 * permanent or absent): one read for the access-token check, which runs on every call.
 */
export function findSessionWithMembership(db: Db, id: string, tenantId: string): Promise<(SessionRow & { membership_expires_at: number | null }) | undefined> {
  return db
    .selectFrom('sessions')
    .leftJoin('user_tenants', (join) => join.onRef('user_tenants.user_id', '=', 'sessions.user_id').on('user_tenants.tenant_id', '=', tenantId))
    .selectAll('sessions')
    .select('user_tenants.expires_at as membership_expires_at')
    .where('sessions.id', '=', id)
    .executeTakeFirst();
}

export async function touchSession(db: Db, id: string, now: number, tenantId?: string): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: now, ...(tenantId ? { tenant_id: tenantId } : {}) }).where('id', '=', id).execute();
}

export async function setSessionTenant(db: Db, id: string, tenantId: string): Promise<void> {
  await db.updateTable('sessions').set({ tenant_id: tenantId }).where('id', '=', id).execute();
}

/** Revokes a live session; true only for the call that revoked it. */
export async function revokeSession(db: Db, id: string, now: number): Promise<boolean> {
  const res = await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
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

/** Session ids that belong to an impersonation (an admin acting as the user), not to the user. */
function impersonationSessionIds(db: Db) {
  return db.selectFrom('impersonations').select('session_id').where('session_id', 'is not', null);
}

/** The user's live sessions (not revoked, not expired), newest first; impersonation sessions are the admin's and left out. */
export function listLiveUserSessions(db: Db, userId: string, now: number): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('id', 'not in', impersonationSessionIds(db))
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Revokes `sessionId` only when it is a live, non-impersonation session of `userId`; false otherwise. */
export async function revokeLiveUserSession(db: Db, userId: string, sessionId: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('id', 'not in', impersonationSessionIds(db))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Revokes every live, non-impersonation session of `userId` except `keepSessionId`; returns their ids. */
export async function revokeOtherLiveUserSessions(db: Db, userId: string, keepSessionId: string, now: number): Promise<string[]> {
  const ids = (
    await db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', '!=', keepSessionId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .where('id', 'not in', impersonationSessionIds(db))
      .execute()
  ).map((r) => r.id);
  if (ids.length === 0) return [];
  // The same conditions again: a session revoked in between is not counted twice.
  const res = await db.updateTable('sessions').set({ revoked_at: now }).where('id', 'in', ids).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0 ? ids : [];
}
