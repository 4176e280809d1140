import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { ProfilePicturesTable } from '../schema';

export type ProfilePictureRow = Selectable<ProfilePicturesTable>;

export async function insertProfilePicture(db: Db, row: Insertable<ProfilePicturesTable>): Promise<void> {
  await db.insertInto('profile_pictures').values(row).execute();
}

export function findProfilePicture(db: Db, id: string): Promise<ProfilePictureRow | undefined> {
  return db.selectFrom('profile_pictures').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteUserPicturesExcept(db: Db, userId: string, keepId: string): Promise<void> {
  await db.deleteFrom('profile_pictures').where('user_id', '=', userId).where('id', '!=', keepId).execute();
}
