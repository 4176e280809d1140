import type { Kysely, Migration } from 'kysely';

/**
 * Binds a sign-up to the browser that made it (pre-sign-up account takeover fix). Each activation
 * token row may carry:
 * - `binding_hash`: SHA-256 of the `gatehouse-signup` cookie set on the browser that signed up;
 * - `pending_password_hash`: argon2id hash of the password chosen at that sign-up, applied only when
 *   the link is opened with the matching cookie;
 * - `pending_profile`: JSON of the profile fields of that sign-up (name, phone, company, metadata),
 *   applied under the same condition.
 * SQLite can add only one column per ALTER TABLE, so each column is its own statement.
 */
export const signupBindingMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('one_time_tokens').addColumn('binding_hash', 'text').execute();
    await db.schema.alterTable('one_time_tokens').addColumn('pending_password_hash', 'text').execute();
    await db.schema.alterTable('one_time_tokens').addColumn('pending_profile', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('one_time_tokens').dropColumn('pending_profile').execute();
    await db.schema.alterTable('one_time_tokens').dropColumn('pending_password_hash').execute();
    await db.schema.alterTable('one_time_tokens').dropColumn('binding_hash').execute();
  },
};
