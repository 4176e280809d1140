import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { MfaEmailCodesTable, MfaTokensTable } from '../schema';

export type MfaTokenRow = Selectable<MfaTokensTable>;
export type MfaEmailCodeRow = Selectable<MfaEmailCodesTable>;

export async function insertMfaToken(db: Db, row: Insertable<MfaTokensTable>): Promise<void> {
  await db.insertInto('mfa_tokens').values(row).execute();
}

export function findMfaToken(db: Db, tokenHash: string): Promise<MfaTokenRow | undefined> {
  return db.selectFrom('mfa_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Single use: only the first caller flips used_at of a live token. */
export async function consumeMfaToken(db: Db, tokenHash: string, now: number): Promise<boolean> {
  const res = await db.updateTable('mfa_tokens').set({ used_at: now }).where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Reserves one attempt on a live token BEFORE its code is compared: a single atomic statement
 * (same SQL on SQLite and PostgreSQL), so N parallel requests can never get more than `max`
 * comparisons out of one token. False when the token is used, expired or out of attempts.
 */
export async function reserveMfaTokenAttempt(db: Db, tokenHash: string, now: number, max: number): Promise<boolean> {
  const res = await db
    .updateTable('mfa_tokens')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('failed_attempts', '<', max)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** After a wrong code: a token whose attempts are all reserved is spent, so guessing needs a new password sign-in. */
export async function spendExhaustedMfaToken(db: Db, tokenHash: string, now: number, max: number): Promise<void> {
  await db.updateTable('mfa_tokens').set({ used_at: now }).where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('failed_attempts', '>=', max).execute();
}

export async function deleteExpiredMfaTokens(db: Db, now: number): Promise<void> {
  await db.deleteFrom('mfa_tokens').where('expires_at', '<', now).execute();
  await db.deleteFrom('mfa_email_codes').where('expires_at', '<', now).execute();
  await db.deleteFrom('mfa_remembered_devices').where('expires_at', '<', now).execute();
}

export async function insertEmailCode(db: Db, row: Insertable<MfaEmailCodesTable>): Promise<void> {
  await db.insertInto('mfa_email_codes').values(row).execute();
}

export function findEmailCode(db: Db, id: string, userId: string, purpose: string): Promise<MfaEmailCodeRow | undefined> {
  return db.selectFrom('mfa_email_codes').selectAll().where('id', '=', id).where('user_id', '=', userId).where('purpose', '=', purpose).executeTakeFirst();
}

export async function consumeEmailCode(db: Db, id: string, now: number): Promise<boolean> {
  const res = await db.updateTable('mfa_email_codes').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Reserve-first, like reserveMfaTokenAttempt: one atomic attempt on a live emailed code before the comparison. */
export async function reserveEmailCodeAttempt(db: Db, id: string, now: number, max: number): Promise<boolean> {
  const res = await db
    .updateTable('mfa_email_codes')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('failed_attempts', '<', max)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** After a wrong code: an emailed code whose attempts are all reserved is spent. */
export async function spendExhaustedEmailCode(db: Db, id: string, now: number, max: number): Promise<void> {
  await db.updateTable('mfa_email_codes').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).where('failed_attempts', '>=', max).execute();
}

/** The newest unused code of a user and purpose is the only live one. */
export async function invalidateEmailCodes(db: Db, userId: string, purpose: string, now: number): Promise<void> {
  await db.updateTable('mfa_email_codes').set({ used_at: now }).where('user_id', '=', userId).where('purpose', '=', purpose).where('used_at', 'is', null).execute();
}

export async function insertRememberedDevice(db: Db, row: { token_hash: string; user_id: string; created_at: number; expires_at: number }): Promise<void> {
  await db.insertInto('mfa_remembered_devices').values(row).execute();
}

/**
 * A remembered-device token counts only for the user it was issued to, only until it expires, and
 * (when given) only if remembered at or after `rememberedSince` (the tenant's current expiry).
 */
export async function isRememberedDevice(db: Db, tokenHash: string, userId: string, now: number, rememberedSince = 0): Promise<boolean> {
  const row = await db
    .selectFrom('mfa_remembered_devices')
    .select('token_hash')
    .where('token_hash', '=', tokenHash)
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .where('created_at', '>=', rememberedSince)
    .executeTakeFirst();
  return row !== undefined;
}

export async function forgetRememberedDevices(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('mfa_remembered_devices').where('user_id', '=', userId).execute();
}

/** Step-up: the session now carries the second factor (amr) and a fresh auth_time; its refreshes keep them. */
export async function upgradeSessionAuth(db: Db, sessionId: string, amr: string[], authTime: number): Promise<void> {
  await db.updateTable('sessions').set({ amr: JSON.stringify(amr), auth_time: authTime }).where('id', '=', sessionId).execute();
}
