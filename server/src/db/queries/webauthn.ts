import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { WebauthnChallengesTable, WebauthnCredentialsTable } from '../schema';

export type WebauthnCredentialRow = Selectable<WebauthnCredentialsTable>;
export type WebauthnChallengeRow = Selectable<WebauthnChallengesTable>;

export async function insertCredential(db: Db, row: Insertable<WebauthnCredentialsTable>): Promise<void> {
  await db.insertInto('webauthn_credentials').values(row).execute();
}

export function findCredentialByCredentialId(db: Db, credentialId: string): Promise<WebauthnCredentialRow | undefined> {
  return db.selectFrom('webauthn_credentials').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

export function listCredentials(db: Db, userId: string): Promise<WebauthnCredentialRow[]> {
  return db.selectFrom('webauthn_credentials').selectAll().where('user_id', '=', userId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
}

/** Deletes one of the user's own credentials; false when there is none with that id for that user. */
export async function deleteCredential(db: Db, userId: string, id: string): Promise<boolean> {
  const res = await db.deleteFrom('webauthn_credentials').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

/**
 * Moves the signature counter from `expected` to `next`. Returns false when another sign-in moved
 * it first: the conditional update is the lock, so two assertions can never both pass one value.
 */
export async function advanceCounter(db: Db, id: string, expected: number, next: number, now: number): Promise<boolean> {
  const res = await db
    .updateTable('webauthn_credentials')
    .set({ counter: next, last_used_at: now })
    .where('id', '=', id)
    .where('counter', '=', expected)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function insertChallenge(db: Db, row: Insertable<WebauthnChallengesTable>): Promise<void> {
  await db.insertInto('webauthn_challenges').values(row).execute();
}

/**
 * Spends a challenge: marks it used only if it exists for this purpose, is unused and unexpired,
 * and returns the row. A second call with the same hash finds it used and returns undefined.
 */
export async function consumeChallenge(db: Db, challengeHash: string, purpose: string, now: number): Promise<WebauthnChallengeRow | undefined> {
  const res = await db
    .updateTable('webauthn_challenges')
    .set({ used_at: now })
    .where('challenge_hash', '=', challengeHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return undefined;
  return db.selectFrom('webauthn_challenges').selectAll().where('challenge_hash', '=', challengeHash).executeTakeFirst();
}

/** Drops challenges that expired before `cutoff` (called opportunistically when new ones are made). */
export async function deleteExpiredChallenges(db: Db, cutoff: number): Promise<void> {
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<', cutoff).execute();
}
