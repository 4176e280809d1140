import { sql } from 'kysely';
import type { Db } from '../index';

/**
 * Counts one wrong password, atomically in SQL, and returns the new count: parallel requests in this
 * process or in others on the same database never lose a count.
 */
export async function countFailedLogin(db: Db, userId: string): Promise<number> {
  const row = await db
    .updateTable('users')
    .set({ failed_logins: sql<number>`${sql.ref('failed_logins')} + 1` })
    .where('id', '=', userId)
    .returning('failed_logins')
    .executeTakeFirst();
  return Number(row?.failed_logins ?? 0);
}

/** Locks the account; true only for the call that locked it (so exactly one unlock email goes out). */
export async function lockUser(db: Db, userId: string, now: number): Promise<boolean> {
  const res = await db.updateTable('users').set({ locked_at: now }).where('id', '=', userId).where('locked_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Unlocks the account and forgets its wrong passwords. */
export async function unlockUser(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set({ locked_at: null, failed_logins: 0 }).where('id', '=', userId).execute();
}

/** A right password: the wrong ones before it no longer count (a no-op write is skipped). */
export async function clearFailedLogins(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set({ failed_logins: 0 }).where('id', '=', userId).where('failed_logins', '<>', 0).execute();
}
