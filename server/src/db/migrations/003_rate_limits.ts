import type { Kysely, Migration } from 'kysely';

/**
 * Fixed-window rate-limit counters, shared by every server process on the database. `key` is
 * `<bucket>:<sha-256 of the identifier>` (never an email in clear text); `window_start` is epoch ms.
 * Only portable types, so one migration serves SQLite and PostgreSQL.
 */
export const rateLimitsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .execute();
    // Cleanup deletes by age.
    await db.schema.createIndex('rate_limits_window_start').on('rate_limits').column('window_start').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('rate_limits').execute();
  },
};
