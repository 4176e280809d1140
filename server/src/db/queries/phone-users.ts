import type { Db } from '../index';
import type { UserRow } from './users';

/**
 * Users by phone number (migration 009). Every number here is E.164 (services/phone.ts). A number
 * signs in only once verified, and the partial unique index `users_verified_phone` keeps verified
 * numbers unique, so at most one user answers to one.
 */

/** The user whose verified phone number this is (enabled or not: the caller decides). */
export function findUserByVerifiedPhone(db: Db, e164: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('phone_number', '=', e164).where('phone_verified', '=', 1).executeTakeFirst();
}

/**
 * The newest phone sign-up still waiting for its number to be proven: not activated, no email, this
 * (unverified) number, created at or after `createdSince` (older ones have expired). A new phone
 * sign-up for the number reuses it rather than adding another.
 */
export function findPendingPhoneSignUp(db: Db, e164: string, createdSince: number): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('phone_number', '=', e164)
    .where('phone_verified', '=', 0)
    .where('verified', '=', 0)
    .where('email', 'is', null)
    .where('created_at', '>=', createdSince)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Marks `e164` as the user's verified number (and, with `activate`, the account as activated: a
 * phone sign-up proven by its code). Only while the user still holds that number. False when
 * another user verified the same number first (the unique index refuses the second one).
 */
export async function markPhoneVerified(db: Db, userId: string, e164: string, activate: boolean): Promise<boolean> {
  try {
    const res = await db
      .updateTable('users')
      .set(activate ? { phone_verified: 1, verified: 1 } : { phone_verified: 1 })
      .where('id', '=', userId)
      .where('phone_number', '=', e164)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  } catch (err) {
    const holder = await findUserByVerifiedPhone(db, e164);
    if (holder && holder.id !== userId) return false;
    throw err;
  }
}
