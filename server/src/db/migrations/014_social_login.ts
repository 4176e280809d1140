import type { Kysely, Migration } from 'kysely';

/**
 * Social login (issue 4 part B). Only portable types, so one migration serves SQLite and PostgreSQL.
 * - `social_login_states`: one sign-in started at a provider. `state_hash` is the SHA-256 of the
 *   state sent to the provider; `binding_hash` the SHA-256 of the httpOnly cookie of the browser that
 *   started it; `sealed` the PKCE verifier and the nonce, AES-256-GCM encrypted under a key derived
 *   from that cookie, so the database alone never yields a usable verifier. `redirect_uri` is what the
 *   provider was told, `return_to` the login box's callback URL (they differ for form_post providers).
 *   `provider_user` keeps the name a form_post provider (Apple) posts only on the first sign-in.
 *   Rows are single use (`used_at`) and short-lived (`expires_at`).
 * - `social_identities`: a provider account (provider + subject) linked to a user. Linking by email
 *   happens only for a verified email; later sign-ins follow the link, even if the email changed.
 * - `sessions.login_origin` (seed 000 section 2.2: social-login, custom-social-login, direct) and
 *   `mfa_tokens.login_origin`, which carries it over a second factor to the session it ends in.
 */
export const socialLoginMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('social_login_states')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('state_hash', 'text', (c) => c.notNull().unique())
      .addColumn('binding_hash', 'text', (c) => c.notNull())
      .addColumn('sealed', 'text', (c) => c.notNull())
      .addColumn('redirect_uri', 'text', (c) => c.notNull())
      .addColumn('return_to', 'text', (c) => c.notNull())
      .addColumn('provider_user', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('social_login_states_expires').on('social_login_states').column('expires_at').execute();

    await db.schema
      .createTable('social_identities')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_login_at', 'bigint')
      .execute();
    await db.schema.createIndex('social_identities_subject').on('social_identities').columns(['provider', 'subject']).unique().execute();
    await db.schema.createIndex('social_identities_user').on('social_identities').column('user_id').execute();

    await db.schema.alterTable('sessions').addColumn('login_origin', 'text', (c) => c.notNull().defaultTo('direct')).execute();
    await db.schema.alterTable('mfa_tokens').addColumn('login_origin', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('mfa_tokens').dropColumn('login_origin').execute();
    await db.schema.alterTable('sessions').dropColumn('login_origin').execute();
    await db.schema.dropTable('social_identities').execute();
    await db.schema.dropTable('social_login_states').execute();
  },
};
