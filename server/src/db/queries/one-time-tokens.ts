import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { OneTimeTokensTable } from '../schema';

export type OneTimeTokenRow = Selectable<OneTimeTokensTable>;
export type NewOneTimeToken = Insertable<OneTimeTokensTable>;


/** What a used or dead token must not keep: the pending password hash and profile are secrets of one sign-up. */
const scrubbed = { binding_hash: null, pending_password_hash: null, pending_profile: null } as const;

export async function insertOneTimeToken(db: Db, row: NewOneTimeToken): Promise<void> {
  await db.insertInto('one_time_tokens').values(row).execute();
}

export function findOneTimeToken(db: Db, tokenHash: string, purpose: string): Promise<OneTimeTokenRow | undefined> {
  return db.selectFrom('one_time_tokens').selectAll().where('token_hash', '=', tokenHash).where('purpose', '=', purpose).executeTakeFirst();
}

/** Single use: only the first caller flips used_at. */
export async function consumeOneTimeToken(db: Db, tokenHash: string, now: number): Promise<boolean> {
  const res = await db.updateTable('one_time_tokens').set({ used_at: now, ...scrubbed }).where('token_hash', '=', tokenHash).where('used_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Invalidates every unused token of a purpose for a user (a resend makes older links dead). */
export async function invalidateUserTokens(db: Db, userId: string, purpose: string, now: number): Promise<void> {
  await db.updateTable('one_time_tokens').set({ used_at: now, ...scrubbed }).where('user_id', '=', userId).where('purpose', '=', purpose).where('used_at', 'is', null).execute();
}

/** The newest live (unused, unexpired) token of a purpose for a user, if any. */
export function findLiveUserToken(db: Db, userId: string, purpose: string, now: number): Promise<OneTimeTokenRow | undefined> {
  return db
    .selectFrom('one_time_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Reserves one code attempt on a live token, atomically: true while fewer than `max` were tried.
 * Counted before the comparison, so parallel guesses cannot exceed the limit.
 */
export async function reserveTokenCodeAttempt(db: Db, tokenHash: string, now: number, max: number): Promise<boolean> {
  const res = await db
    .updateTable('one_time_tokens')
    .set((eb) => ({ code_attempts: eb('code_attempts', '+', 1) }))
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('code_attempts', '<', max)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
