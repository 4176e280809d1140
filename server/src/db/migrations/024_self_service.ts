import type { Kysely, Migration } from 'kysely';

/**
 * Account self-service and authentication audit (issue 11), portable across SQLite and PostgreSQL:
 *
 * - `users.locale`: the language the user's emails are written in (en, de, es, he), when known.
 * - `mfa_tokens.sign_in_method`: how the sign-in waiting for its second factor began (password,
 *   magic link, social, ...), so the audit record of the finished sign-in names it.
 * - `one_time_tokens.code_hash` and `code_attempts`: the one-time code printed in an activation
 *   email (activation by code), keyed by the user id, with its wrong-attempt count.
 * - `email_changes`: a pending change of a user's email address; the new address proves itself
 *   with the emailed link (token) or code before it replaces the old one. Hashes only.
 */
export const selfServiceMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('users').addColumn('locale', 'text').execute();
    await db.schema.alterTable('mfa_tokens').addColumn('sign_in_method', 'text').execute();
    await db.schema.alterTable('one_time_tokens').addColumn('code_hash', 'text').execute();
    await db.schema.alterTable('one_time_tokens').addColumn('code_attempts', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema
      .createTable('email_changes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('new_email', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('email_changes_user_idx').on('email_changes').columns(['user_id', 'created_at']).execute();
  },

  async down(db: Kysely<any>) {
    await db.schema.dropTable('email_changes').execute();
    await db.schema.alterTable('one_time_tokens').dropColumn('code_attempts').execute();
    await db.schema.alterTable('one_time_tokens').dropColumn('code_hash').execute();
    await db.schema.alterTable('mfa_tokens').dropColumn('sign_in_method').execute();
    await db.schema.alterTable('users').dropColumn('locale').execute();
  },
};
