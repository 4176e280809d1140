/**
 * The signed-in user's username (seed 001 section 7 "usernames CRUD"). A username is a sign-in
 * identifier, so it is unique ignoring case, and an impersonator cannot change it. Seed 001 section 5
 * ("a changed value deletes the old username first") is the client's order of calls: create refuses
 * while the account still has one, and delete is idempotent, so a half-finished change can be retried.
 */
import { AdminErrorCodes } from '@gatehouse/shared/wire';
import type { Db } from '../../db';
import { isUsernameTaken, setUsernameIfNone, updateUser } from '../../db/queries/users';
import { isUniqueViolation } from '../../db/unique-violation';
import { AppError } from '../../errors';
import type { AuthContext } from '../auth/auth';
import { refuseWhileImpersonating } from '../admin/permissions';

export interface UsernameService {
  create(ctx: AuthContext, username: string): Promise<{ username: string }>;
  remove(ctx: AuthContext): Promise<void>;
}

const taken = () => new AppError(AdminErrorCodes.usernameTaken, 409, 'This username is already taken');

export function createUsernameService(deps: { db: Db }): UsernameService {
  const { db } = deps;
  return {
    async create(ctx, username) {
      refuseWhileImpersonating(ctx);
      if (await isUsernameTaken(db, username, ctx.userId)) throw taken();
      let set: boolean;
      try {
        set = await setUsernameIfNone(db, ctx.userId, username);
      } catch (error) {
        // Two accounts racing for the same name: the unique index decides.
        if (isUniqueViolation(error)) throw taken();
        throw error;
      }
      if (!set) throw new AppError(AdminErrorCodes.usernameExists, 409, 'Delete your current username first');
      return { username };
    },

    async remove(ctx) {
      refuseWhileImpersonating(ctx);
      await updateUser(db, ctx.userId, { username: null });
    },
  };
}
