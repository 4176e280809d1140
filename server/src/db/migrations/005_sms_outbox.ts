import type { Kysely, Migration } from 'kysely';

/**
 * SMS in the dev outbox and password recovery by SMS.
 * - `outbox.channel`: 'email' (every existing row) or 'sms'; an SMS row keeps the phone number in
 *   `to_address` and the message in `text_body`.
 * - `sms_reset_sessions`: one SMS password-recovery attempt. `session_hash` is the SHA-256 of the
 *   session id handed to the browser, `code_hash` the SHA-256 of session id + code; `attempts`
 *   counts wrong codes, so guessing stops at the limit even across server processes.
 * Only portable types, so one migration serves SQLite and PostgreSQL.
 */
export const smsOutboxMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('outbox').addColumn('channel', 'text', (c) => c.notNull().defaultTo('email')).execute();
    await db.schema
      .createTable('sms_reset_sessions')
      .addColumn('session_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('sms_reset_sessions_user').on('sms_reset_sessions').column('user_id').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('sms_reset_sessions').execute();
    await db.schema.alterTable('outbox').dropColumn('channel').execute();
  },
};
