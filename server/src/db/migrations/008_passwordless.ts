import type { Kysely, Migration } from 'kysely';

/**
 * Passwordless sign-in (magic link and emailed code).
 * - `passwordless_codes`: one link or code sent. `secret_hash` is the SHA-256 of the link token, or of
 *   `<id>:<code>` for a code (keyed by the row id, so equal codes never share a hash); `attempts` is
 *   reserved atomically before each comparison, so guessing stops at the limit even across processes.
 * Only portable types, so one migration serves SQLite and PostgreSQL.
 */
export const passwordlessMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('passwordless_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('secret_hash', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('passwordless_codes_secret').on('passwordless_codes').column('secret_hash').execute();
    await db.schema.createIndex('passwordless_codes_user').on('passwordless_codes').columns(['user_id', 'kind']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('passwordless_codes').execute();
  },
};
