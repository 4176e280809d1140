import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { SocialIdentitiesTable, SocialLoginStatesTable } from '../schema-social';

export type SocialLoginStateRow = Selectable<SocialLoginStatesTable>;
export type SocialIdentityRow = Selectable<SocialIdentitiesTable>;

export async function insertSocialLoginState(db: Db, row: Insertable<SocialLoginStatesTable>): Promise<void> {
  await db.insertInto('social_login_states').values(row).execute();
}

export function findSocialLoginState(db: Db, stateHash: string): Promise<SocialLoginStateRow | undefined> {
  return db.selectFrom('social_login_states').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
}

/** Single use: only the first caller flips used_at of a live row (one statement, both dialects). */
export async function consumeSocialLoginState(db: Db, id: string, now: number): Promise<boolean> {
  const res = await db.updateTable('social_login_states').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The name a form_post provider posted with its answer (kept until the postlogin reads it). */
export async function setSocialLoginProviderUser(db: Db, id: string, providerUser: string): Promise<void> {
  await db.updateTable('social_login_states').set({ provider_user: providerUser }).where('id', '=', id).where('used_at', 'is', null).execute();
}

/** Housekeeping: rows that expired before `before` are of no use to anyone. */
export async function deleteExpiredSocialLoginStates(db: Db, before: number): Promise<void> {
  await db.deleteFrom('social_login_states').where('expires_at', '<', before).execute();
}

export function findSocialIdentity(db: Db, provider: string, subject: string): Promise<SocialIdentityRow | undefined> {
  return db.selectFrom('social_identities').selectAll().where('provider', '=', provider).where('subject', '=', subject).executeTakeFirst();
}

export async function insertSocialIdentity(db: Db, row: Insertable<SocialIdentitiesTable>): Promise<void> {
  await db.insertInto('social_identities').values(row).execute();
}

export async function touchSocialIdentity(db: Db, id: string, email: string | null, now: number): Promise<void> {
  await db.updateTable('social_identities').set({ email, last_login_at: now }).where('id', '=', id).execute();
}
