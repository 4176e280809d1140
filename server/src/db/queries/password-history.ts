/**
 * A user's previous passwords (issue 12, password history policy): their argon2id hashes only, the
 * newest `PASSWORD_HISTORY_MAX` kept.
 */
import type { Db } from '../index';

/** Remembers `passwordHash` as the user's newest password and forgets all but the newest `keep`. */
export async function rememberPassword(db: Db, row: { id: string; userId: string; passwordHash: string; now: number }, keep: number): Promise<void> {
  await db.insertInto('password_history').values({ id: row.id, user_id: row.userId, password_hash: row.passwordHash, created_at: row.now }).execute();
  const kept = await db.selectFrom('password_history').select('id').where('user_id', '=', row.userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(keep).execute();
  if (kept.length < keep) return;
  await db.deleteFrom('password_history').where('user_id', '=', row.userId).where('id', 'not in', kept.map((k) => k.id)).execute();
}

/** The user's newest `limit` previous password hashes, newest first. */
export async function recentPasswordHashes(db: Db, userId: string, limit: number): Promise<string[]> {
  if (limit <= 0) return [];
  const rows = await db.selectFrom('password_history').select('password_hash').where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => r.password_hash);
}
