import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../index';
import { changesOf } from '../patch';
import type { UsersTable } from '../schema';

export type UserRow = Selectable<UsersTable>;
/** A user with an email address (accounts made by phone sign-up have none). */
export type UserWithEmail = UserRow & { email: string };

/** Whether the user has an email address to write to. */
export function hasEmail(user: UserRow | undefined): user is UserWithEmail {
  return typeof user?.email === 'string' && user.email.length > 0;
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

export async function insertUser(db: Db, row: Insertable<UsersTable>): Promise<void> {
  await db.insertInto('users').values({ ...row, email: row.email?.toLowerCase() ?? null }).execute();
}

export async function updateUser(db: Db, id: string, patch: Updateable<UsersTable>): Promise<void> {
  const changes = changesOf(patch);
  if (!changes) return;
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

/** Whether another account than `exceptUserId` has `username`, compared ignoring case (no look-alike accounts). */
export async function isUsernameTaken(db: Db, username: string, exceptUserId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .where('id', '!=', exceptUserId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Gives the user `username` only while they have none; false when they already have one. */
export async function setUsernameIfNone(db: Db, userId: string, username: string): Promise<boolean> {
  const res = await db.updateTable('users').set({ username }).where('id', '=', userId).where('username', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
