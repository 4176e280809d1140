import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { SmsResetSessionsTable } from '../schema';

export type SmsResetSessionRow = Selectable<SmsResetSessionsTable>;

export async function insertSmsResetSession(db: Db, row: Insertable<SmsResetSessionsTable>): Promise<void> {
  await db.insertInto('sms_reset_sessions').values(row).execute();
}

export function findSmsResetSession(db: Db, sessionHash: string): Promise<SmsResetSessionRow | undefined> {
  return db.selectFrom('sms_reset_sessions').selectAll().where('session_hash', '=', sessionHash).executeTakeFirst();
}

/**
 * Counts one code attempt, atomically and only while the session is alive and under `maxAttempts`.
 * Returns false when the attempt was not allowed (used, or out of attempts): the conditional update is
 * the lock, so parallel guesses across processes can never exceed the limit.
 */
export async function countSmsResetAttempt(db: Db, sessionHash: string, maxAttempts: number): Promise<boolean> {
  const res = await db
    .updateTable('sms_reset_sessions')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('session_hash', '=', sessionHash)
    .where('used_at', 'is', null)
    .where('attempts', '<', maxAttempts)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Single use: only the first caller flips used_at. */
export async function consumeSmsResetSession(db: Db, sessionHash: string, now: number): Promise<boolean> {
  const res = await db.updateTable('sms_reset_sessions').set({ used_at: now }).where('session_hash', '=', sessionHash).where('used_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Ends every open SMS recovery of a user (a newer request, or a completed reset). */
export async function invalidateUserSmsResetSessions(db: Db, userId: string, now: number): Promise<void> {
  await db.updateTable('sms_reset_sessions').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/** The only verified, enabled user with this phone number; none when unknown or shared by several. */
export async function findUniqueUserIdByPhone(db: Db, phoneNumber: string): Promise<string | undefined> {
  const rows = await db.selectFrom('users').select('id').where('phone_number', '=', phoneNumber).where('verified', '=', 1).limit(2).execute();
  return rows.length === 1 ? rows[0]!.id : undefined;
}
