import type { Kysely, Migration } from 'kysely';

/**
 * Whether SCIM created the account behind a provisioned user (issue 15 security review): SCIM writes
 * an account's own fields (email, name, job title) and deletes the account only when it created it;
 * for an account that existed before (a member linked by email) it manages the membership alone.
 * Rows provisioned before this migration are treated as linked (0), the safe reading.
 */
export const scimCreatedAccountMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('scim_resources').addColumn('created_account', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('scim_resources').dropColumn('created_account').execute();
  },
};
