import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { PhoneVerificationsTable } from '../schema';

export type PhoneVerificationRow = Selectable<PhoneVerificationsTable>;

export async function insertPhoneVerification(db: Db, row: Insertable<PhoneVerificationsTable>): Promise<void> {
  await db.insertInto('phone_verifications').values(row).execute();
}

export function findPhoneVerification(db: Db, idHash: string): Promise<PhoneVerificationRow | undefined> {
  return db.selectFrom('phone_verifications').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
}

/**
 * Reserves one code attempt on a live row before the comparison, atomically: parallel guesses across
 * processes never get more than `max` comparisons. False when used, expired or out of attempts.
 */
export async function reservePhoneVerificationAttempt(db: Db, idHash: string, now: number, max: number): Promise<boolean> {
  const res = await db
    .updateTable('phone_verifications')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id_hash', '=', idHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', max)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Single use: only the first caller flips used_at of a live row. */
export async function consumePhoneVerification(db: Db, idHash: string, now: number): Promise<boolean> {
  const res = await db.updateTable('phone_verifications').set({ used_at: now }).where('id_hash', '=', idHash).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** A row whose attempts are all reserved is spent, so guessing needs a new request. */
export async function spendExhaustedPhoneVerification(db: Db, idHash: string, now: number, max: number): Promise<void> {
  await db.updateTable('phone_verifications').set({ used_at: now }).where('id_hash', '=', idHash).where('used_at', 'is', null).where('attempts', '>=', max).execute();
}

/** Ends the user's open requests of the given purposes (a newer request, or a completed change). */
export async function invalidatePhoneVerifications(db: Db, userId: string, purposes: string[], now: number): Promise<void> {
  await db.updateTable('phone_verifications').set({ used_at: now }).where('user_id', '=', userId).where('purpose', 'in', purposes).where('used_at', 'is', null).execute();
}

export async function deleteExpiredPhoneVerifications(db: Db, cutoff: number): Promise<void> {
  await db.deleteFrom('phone_verifications').where('expires_at', '<', cutoff).execute();
}

/** The one user holding this number verified (verified numbers are unique, migration 009), if any. */
export async function findUserIdByVerifiedPhone(db: Db, phoneNumber: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('id').where('phone_number', '=', phoneNumber).where('phone_verified', '=', 1).executeTakeFirst();
  return row?.id;
}

/** The user's newest live one-time token of a purpose (its hash and binding), if any. */
export async function findLiveUserToken(db: Db, userId: string, purpose: string, now: number): Promise<{ token_hash: string; binding_hash: string | null } | undefined> {
  return db
    .selectFrom('one_time_tokens')
    .select(['token_hash', 'binding_hash'])
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}
