import { sql, type Kysely, type Migration } from 'kysely';
import { USER_COLUMNS, userUpdate } from './016_admin_people';
import type { DialectName } from './index';

/**
 * A sign-in's write of `users.last_login` copies only `active_at` onto the user's memberships
 * (issue 17). Migration 016's one trigger `gh_users_copy` set every copied column whenever any of
 * them changed, and SQLite rewrites each index that holds a column an UPDATE sets, whether its value
 * changed or not: a sign-in rewrote the entries of all ten sort and preset indexes of `user_tenants`
 * to move one of them. It wrote 43 pages to the write-ahead log, 9 of them for those entries.
 *
 * Now:
 * - `gh_users_copy` follows name, email, created_at, verified, locked_at and is_breached_password,
 *   and still sets every copy (created_at is part of `active_at` for a user who never signed in);
 * - `gh_users_activity` follows last_login and sets `active_at` alone, so a sign-in rewrites the
 *   membership row and its `user_tenants_by_activity` entry, nothing else.
 * What the copies hold is unchanged; an UPDATE that sets columns of both fires both. PostgreSQL gets
 * the same split, so both dialects keep one definition of the copies.
 */
const COPIED = USER_COLUMNS.split(', ').filter((c) => c !== 'last_login').join(', ');
const ACTIVITY = `update user_tenants set active_at = coalesce(new.last_login, new.created_at) where user_id = new.id`;

export function memberActivityTriggerMigration(dialect: DialectName): Migration {
  const run = async (db: Kysely<any>, statements: string[]) => {
    for (const statement of statements) await sql.raw(statement).execute(db);
  };
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'postgres') {
        await run(db, [
          'drop trigger if exists gh_users_copy on users',
          `create trigger gh_users_copy after update of ${COPIED} on users for each row execute function gh_users_copy()`,
          `create or replace function gh_users_activity() returns trigger language plpgsql as $fn$ begin ${ACTIVITY}; return null; end $fn$`,
          'create trigger gh_users_activity after update of last_login on users for each row execute function gh_users_activity()',
        ]);
        return;
      }
      await run(db, [
        'drop trigger if exists gh_users_copy',
        `create trigger gh_users_copy after update of ${COPIED} on users begin ${userUpdate('new')}; end`,
        `create trigger gh_users_activity after update of last_login on users begin ${ACTIVITY}; end`,
      ]);
    },

    async down(db: Kysely<any>) {
      if (dialect === 'postgres') {
        await run(db, [
          'drop trigger if exists gh_users_activity on users',
          'drop function if exists gh_users_activity()',
          'drop trigger if exists gh_users_copy on users',
          `create trigger gh_users_copy after update of ${USER_COLUMNS} on users for each row execute function gh_users_copy()`,
        ]);
        return;
      }
      await run(db, ['drop trigger if exists gh_users_activity', 'drop trigger if exists gh_users_copy', `create trigger gh_users_copy after update of ${USER_COLUMNS} on users begin ${userUpdate('new')}; end`]);
    },
  };
}
