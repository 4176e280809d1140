import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { PasswordlessCodesTable } from '../schema';

export type PasswordlessCodeRow = Selectable<PasswordlessCodesTable>;

export async function insertPasswordlessCode(db: Db, row: Insertable<PasswordlessCodesTable>): Promise<void> {
  await db.insertInto('passwordless_codes').values(row).execute();
}

/** The magic link with this token hash. */
export function findPasswordlessBySecret(db: Db, secretHash: string, kind: string): Promise<PasswordlessCodeRow | undefined> {
  return db.selectFrom('passwordless_codes').selectAll().where('secret_hash', '=', secretHash).where('kind', '=', kind).executeTakeFirst();
}

/** The user's newest unused code of a kind (older ones are spent when a new one is sent). */
export function findLatestPasswordless(db: Db, userId: string, kind: string): Promise<PasswordlessCodeRow | undefined> {
  return db
    .selectFrom('passwordless_codes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Reserves one attempt on a live link or code BEFORE it is compared: one atomic statement (same SQL
 * on both dialects), so parallel requests never get more than `max` comparisons out of one row.
 * False when it is used, expired or out of attempts.
 */
export async function reservePasswordlessAttempt(db: Db, id: string, now: number, max: number): Promise<boolean> {
  const res = await db
    .updateTable('passwordless_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', max)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Single use: only the first caller flips used_at of a live row. */
export async function consumePasswordless(db: Db, id: string, now: number): Promise<boolean> {
  const res = await db.updateTable('passwordless_codes').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** After a wrong code: a row whose attempts are all reserved is spent, so guessing needs a new code. */
export async function spendExhaustedPasswordless(db: Db, id: string, now: number, max: number): Promise<void> {
  await db.updateTable('passwordless_codes').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).where('attempts', '>=', max).execute();
}

/** A newer link or code kills the user's older ones of that kind. */
export async function invalidateUserPasswordless(db: Db, userId: string, kind: string, now: number): Promise<void> {
  await db.updateTable('passwordless_codes').set({ used_at: now }).where('user_id', '=', userId).where('kind', '=', kind).where('used_at', 'is', null).execute();
}
