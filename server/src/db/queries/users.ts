import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../index';
import { precompiled, precompiledUpdateById, type Params } from '../precompiled';
import type { UsersTable } from '../schema';

export type UserRow = Selectable<UsersTable>;
/** A user with an email address (accounts made by phone sign-up have none). */
export type UserWithEmail = UserRow & { email: string };

/** Whether the user has an email address to write to. */
export function hasEmail(user: UserRow | undefined): user is UserWithEmail {
  return typeof user?.email === 'string' && user.email.length > 0;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return (await userById(db, { id })).rows[0];
}

const userById = precompiled((db, p: Params<{ id: string }>) => db.selectFrom('users').selectAll().where('id', '=', p.id));

/**
 * A user with whether they have an active MFA device (seed 4.8: enrolled), in one statement: what
 * the profile (`users/v2/me`) reads on every call.
 */
export async function findUserWithMfaEnrolled(db: Db, id: string): Promise<(UserRow & { mfa_enrolled: boolean }) | undefined> {
  const row = (await userWithMfaEnrolled(db, { id })).rows[0];
  // SQLite answers EXISTS with 0 or 1, PostgreSQL with a boolean.
  return row ? { ...row, mfa_enrolled: Number(row.mfa_enrolled) === 1 } : undefined;
}

const userWithMfaEnrolled = precompiled((db, p: Params<{ id: string }>) =>
  db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) => eb.exists(eb.selectFrom('mfa_devices').select('mfa_devices.id').whereRef('mfa_devices.user_id', '=', 'users.id').where('mfa_devices.status', '=', 'active')).as('mfa_enrolled'))
    .where('users.id', '=', p.id),
);

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return (await userByEmail(db, { email: email.toLowerCase() })).rows[0];
}

const userByEmail = precompiled((db, p: Params<{ email: string }>) => db.selectFrom('users').selectAll().where('email', '=', p.email));

export function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

export async function insertUser(db: Db, row: Insertable<UsersTable>): Promise<void> {
  await db.insertInto('users').values({ ...row, email: row.email?.toLowerCase() ?? null }).execute();
}

export async function updateUser(db: Db, id: string, patch: Updateable<UsersTable>): Promise<void> {
  await updateUserById(db, id, patch);
}

const updateUserById = precompiledUpdateById('users');

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
