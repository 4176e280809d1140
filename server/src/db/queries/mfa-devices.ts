import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { MfaDevicesTable, MfaRecoveryCodesTable } from '../schema';
import { precompiled, type Params } from '../precompiled';

export type MfaDeviceRow = Selectable<MfaDevicesTable>;
export type RecoveryCodeRow = Selectable<MfaRecoveryCodesTable>;

export async function insertMfaDevice(db: Db, row: Insertable<MfaDevicesTable>): Promise<void> {
  await db.insertInto('mfa_devices').values(row).execute();
}

export async function listMfaDevices(db: Db, userId: string, status?: 'active' | 'pending'): Promise<MfaDeviceRow[]> {
  return (status ? await mfaDevicesIn(db, { userId, status }) : await mfaDevices(db, { userId })).rows;
}

const mfaDevices = precompiled((db, p: Params<{ userId: string }>) => db.selectFrom('mfa_devices').selectAll().where('user_id', '=', p.userId).orderBy('created_at'));
const mfaDevicesIn = precompiled((db, p: Params<{ userId: string; status: string }>) =>
  db.selectFrom('mfa_devices').selectAll().where('user_id', '=', p.userId).where('status', '=', p.status).orderBy('created_at'),
);

export function findMfaDevice(db: Db, userId: string, id: string): Promise<MfaDeviceRow | undefined> {
  return db.selectFrom('mfa_devices').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/** Removes unfinished enrolments of a kind, so only the newest QR code can be confirmed. */
export async function deletePendingDevices(db: Db, userId: string, type: string): Promise<void> {
  await db.deleteFrom('mfa_devices').where('user_id', '=', userId).where('type', '=', type).where('status', '=', 'pending').execute();
}

export async function activateMfaDevice(db: Db, id: string, now: number, step: number | null): Promise<void> {
  await db.updateTable('mfa_devices').set({ status: 'active', verified_at: now, last_used_step: step }).where('id', '=', id).execute();
}

/**
 * Records the TOTP step of an accepted code. Only the first caller for a step wins, so the same
 * code (or an older one) can never be accepted twice, even by two processes at once.
 */
export async function claimTotpStep(db: Db, id: string, step: number): Promise<boolean> {
  const res = await db
    .updateTable('mfa_devices')
    .set({ last_used_step: step })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function deleteMfaDevice(db: Db, userId: string, id: string): Promise<void> {
  await db.deleteFrom('mfa_devices').where('user_id', '=', userId).where('id', '=', id).execute();
}

export async function deleteAllMfaDevices(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('mfa_devices').where('user_id', '=', userId).execute();
}

/** Replaces the user's recovery codes (older ones stop working). */
export async function replaceRecoveryCodes(db: Db, userId: string, rows: Insertable<MfaRecoveryCodesTable>[]): Promise<void> {
  const replace = async (trx: Db) => {
    await trx.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
    if (rows.length) await trx.insertInto('mfa_recovery_codes').values(rows).execute();
  };
  // Inside a caller's transaction (the codes commit with their audit record), else in one of its own.
  if (db.isTransaction) await replace(db);
  else await db.transaction().execute(replace);
}

export function listUnusedRecoveryCodes(db: Db, userId: string): Promise<RecoveryCodeRow[]> {
  return db.selectFrom('mfa_recovery_codes').selectAll().where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/** Single use: only the first caller flips used_at. */
export async function useRecoveryCode(db: Db, id: string, now: number): Promise<boolean> {
  const res = await db.updateTable('mfa_recovery_codes').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function deleteRecoveryCodes(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
}
