/** Queries of the SMS and WebAuthn kinds of `mfa_devices` (migration 010). */
import type { Insertable } from 'kysely';
import type { Db } from '../index';
import type { MfaDevicesTable } from '../schema';
import type { MfaDeviceRow } from './mfa-devices';

/** The device holding this WebAuthn credential id, whoever owns it. */
export function findMfaDeviceByCredentialId(db: Db, credentialId: string): Promise<MfaDeviceRow | undefined> {
  return db.selectFrom('mfa_devices').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

/**
 * Moves a security key's signature counter from `expected` to `next`. False when another assertion
 * moved it first: the conditional update is the lock, so one counter value never passes twice.
 */
export async function advanceMfaDeviceCounter(db: Db, id: string, expected: number, next: number): Promise<boolean> {
  const res = await db.updateTable('mfa_devices').set({ counter: next }).where('id', '=', id).where('counter', '=', expected).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Replaces every SMS device of the user (active or pending) by `row`, in one transaction. */
export async function replaceSmsDevices(db: Db, userId: string, row: Insertable<MfaDevicesTable>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('mfa_devices').where('user_id', '=', userId).where('type', '=', 'sms').execute();
    await trx.insertInto('mfa_devices').values(row).execute();
  });
}
