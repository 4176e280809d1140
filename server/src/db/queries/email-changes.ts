/** Pending email-address changes (migration 024): hashes only; each row is used at most once. */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { EmailChangesTable } from '../schema-self-service';

export type EmailChangeRow = Selectable<EmailChangesTable>;

export async function insertEmailChange(db: Db, row: Insertable<EmailChangesTable>): Promise<void> {
  await db.insertInto('email_changes').values(row).execute();
}

/** Ends every pending change of a user (a newer request, or the address changed). */
export async function cancelEmailChanges(db: Db, userId: string, now: number): Promise<void> {
  await db.updateTable('email_changes').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/** The live change a link token belongs to, if any. */
export function findLiveEmailChangeByToken(db: Db, tokenHash: string, now: number): Promise<EmailChangeRow | undefined> {
  return db.selectFrom('email_changes').selectAll().where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
}

/** The user's newest live change, if any (the one a code is checked against). */
export function findLiveEmailChangeOfUser(db: Db, userId: string, now: number): Promise<EmailChangeRow | undefined> {
  return db
    .selectFrom('email_changes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Reserves one code attempt, atomically: true while fewer than `max` were tried (counted before the comparison). */
export async function reserveEmailChangeAttempt(db: Db, id: string, now: number, max: number): Promise<boolean> {
  const res = await db
    .updateTable('email_changes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', max)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Uses a live change up; true only for the one call that did. */
export async function consumeEmailChange(db: Db, id: string, now: number): Promise<boolean> {
  const res = await db.updateTable('email_changes').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
