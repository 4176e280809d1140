import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { SigningKeysTable } from '../schema';

export type SigningKeyRow = Selectable<SigningKeysTable>;

export async function insertSigningKey(db: Db, row: Insertable<SigningKeysTable>): Promise<void> {
  await db.insertInto('signing_keys').values(row).execute();
}

/** Active keys and retired keys still inside their overlap window, newest first. */
export function listPublishedKeys(db: Db, now: number): Promise<SigningKeyRow[]> {
  return db
    .selectFrom('signing_keys')
    .selectAll()
    .where((eb) => eb.or([eb('status', '=', 'active'), eb.and([eb('status', '=', 'retired'), eb('not_after', '>', now)])]))
    .orderBy('created_at', 'desc')
    .orderBy('kid', 'desc')
    .execute();
}

export async function retireActiveKeys(db: Db, exceptKid: string, notAfter: number): Promise<void> {
  await db.updateTable('signing_keys').set({ status: 'retired', not_after: notAfter }).where('status', '=', 'active').where('kid', '!=', exceptKid).execute();
}
