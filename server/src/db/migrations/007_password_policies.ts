import type { Kysely, Migration } from 'kysely';

/**
 * Password policies on users (seed 000 sections 3, 4.2, 4.7):
 * - `password_changed_at` (epoch ms): when the password was last set, for rotation (null: never set
 *   since this migration; rotation then counts from `created_at`);
 * - `failed_logins`: wrong passwords in a row, incremented atomically in SQL so every server process
 *   on the database counts the same attempts;
 * - `locked_at` (epoch ms): set once the lockout policy's attempts are used up; cleared by unlock;
 * - `is_breached_password`: the last password proven at sign-in is on the breached list (admin filter).
 * SQLite can add only one column per ALTER TABLE, so each column is its own statement.
 */
export const passwordPoliciesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('users').addColumn('password_changed_at', 'bigint').execute();
    await db.schema.alterTable('users').addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('users').addColumn('locked_at', 'bigint').execute();
    await db.schema.alterTable('users').addColumn('is_breached_password', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('users').dropColumn('is_breached_password').execute();
    await db.schema.alterTable('users').dropColumn('locked_at').execute();
    await db.schema.alterTable('users').dropColumn('failed_logins').execute();
    await db.schema.alterTable('users').dropColumn('password_changed_at').execute();
  },
};
