import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Security review of issue 5 (L8): a username is a sign-in identifier, unique ignoring case. The
 * check in services/usernames.ts alone lets two parallel requests (`Alice`, `alice`) both pass, so the
 * database enforces it with a unique index on lower(username) (an expression index on both dialects;
 * NULLs never collide). Rows that already collide keep the oldest account's username (by created_at,
 * then id); the later look-alikes lose theirs (they still sign in by email) so the index can be built.
 */
export const securityFixesMigration: Migration = {
  async up(db: Kysely<any>) {
    await sql`update users set username = null where username is not null and exists (
      select 1 from users o where o.username is not null and lower(o.username) = lower(users.username)
        and (o.created_at < users.created_at or (o.created_at = users.created_at and o.id < users.id)))`.execute(db);
    await sql`create unique index users_username_lower on users (lower(username))`.execute(db);
  },

  async down(db: Kysely<any>) {
    await sql`drop index users_username_lower`.execute(db);
  },
};
