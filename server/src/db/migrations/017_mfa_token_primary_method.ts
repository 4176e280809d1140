import type { Kysely, Migration } from 'kysely';

/**
 * `mfa_tokens.primary_method`: how the sign-in waiting for its second factor proved the user, as an
 * amr value ('pwd' after the password; null for a magic link, code, provider, invitation or an
 * older row). The lost-phone reset may replace an SMS second factor only for a sign-in that proved
 * the password: the other ways in can rest on the same mailbox the reset emails. One portable
 * column, so it serves SQLite and PostgreSQL alike.
 */
export const mfaTokenPrimaryMethodMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('mfa_tokens').addColumn('primary_method', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('mfa_tokens').dropColumn('primary_method').execute();
  },
};
