import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { MfaSmsCodesTable } from '../schema';

export type MfaSmsCodeRow = Selectable<MfaSmsCodesTable>;

export async function insertSmsCode(db: Db, row: Insertable<MfaSmsCodesTable>): Promise<void> {
  await db.insertInto('mfa_sms_codes').values(row).execute();
}

/** A code by its otcToken (the row id), only for its user and purpose. */
export function findSmsCode(db: Db, id: string, userId: string, purpose: string): Promise<MfaSmsCodeRow | undefined> {
  return db.selectFrom('mfa_sms_codes').selectAll().where('id', '=', id).where('user_id', '=', userId).where('purpose', '=', purpose).executeTakeFirst();
}

/**
 * Reserves one attempt on a live code BEFORE it is compared: one atomic statement (same SQL on both
 * dialects), so parallel requests never get more than `max` comparisons out of one code.
 */
export async function reserveSmsCodeAttempt(db: Db, id: string, now: number, max: number): Promise<boolean> {
  const res = await db
    .updateTable('mfa_sms_codes')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('failed_attempts', '<', max)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Single use: only the first caller flips used_at of a live code. */
export async function consumeSmsCode(db: Db, id: string, now: number): Promise<boolean> {
  const res = await db.updateTable('mfa_sms_codes').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** After a wrong code: a code whose attempts are all reserved is spent. */
export async function spendExhaustedSmsCode(db: Db, id: string, now: number, max: number): Promise<void> {
  await db.updateTable('mfa_sms_codes').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).where('failed_attempts', '>=', max).execute();
}

/** A newer code kills the user's older ones of the same purpose. */
export async function invalidateSmsCodes(db: Db, userId: string, purpose: string, now: number): Promise<void> {
  await db.updateTable('mfa_sms_codes').set({ used_at: now }).where('user_id', '=', userId).where('purpose', '=', purpose).where('used_at', 'is', null).execute();
}

export async function deleteExpiredSmsCodes(db: Db, cutoff: number): Promise<void> {
  await db.deleteFrom('mfa_sms_codes').where('expires_at', '<', cutoff).execute();
}
