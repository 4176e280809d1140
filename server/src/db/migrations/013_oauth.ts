import type { Kysely, Migration } from 'kysely';

/**
 * Hosted login: Gatehouse as an OAuth 2.0 / OpenID Connect authorization server.
 * - `oauth_clients`: applications registered with the CLI (`npm run gatehouse -- clients add`).
 *   `secret_hash` is the SHA-256 of a confidential client's secret (null: a public client);
 *   redirect and post-logout URIs are JSON arrays, matched exactly.
 * - `oauth_codes`: authorization codes, stored as SHA-256, single use (`used_at`) and short-lived.
 *   They carry the request they answer (client, redirect URI, PKCE S256 challenge, scope, nonce)
 *   and the browser session that signed in. `issued_session_id` is the grant its exchange created,
 *   so a replayed code revokes exactly what it issued; `reused_at` marks such a replay.
 * - `oauth_grants`: one grant per code exchange (or silent authorization): a row of `sessions` of its
 *   own (the tokens' `sid`), the client and scope, and the browser session it came from.
 * - `oauth_refresh_tokens`: the grants' refresh tokens (SHA-256), rotated on every use; a used one
 *   presented again revokes its grant.
 * - `oauth_browser_sessions`: the httpOnly cookie (path `/oauth`) by which the authorize and logout
 *   endpoints recognise the browser's Gatehouse session, whose refresh cookie they never see.
 * Only portable types, so one migration serves SQLite and PostgreSQL.
 */
export const oauthMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('oauth_clients')
      .addColumn('client_id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('secret_hash', 'text')
      .addColumn('redirect_uris', 'text', (c) => c.notNull())
      .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('oauth_codes')
      .addColumn('code_hash', 'text', (c) => c.primaryKey())
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('redirect_uri', 'text', (c) => c.notNull())
      .addColumn('code_challenge', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('browser_session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('reused_at', 'bigint')
      .addColumn('issued_session_id', 'text')
      .execute();
    await db.schema.createIndex('oauth_codes_expires').on('oauth_codes').column('expires_at').execute();

    await db.schema
      .createTable('oauth_grants')
      .addColumn('session_id', 'text', (c) => c.primaryKey().references('sessions.id').onDelete('cascade'))
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('browser_session_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oauth_grants_browser_session').on('oauth_grants').columns(['browser_session_id', 'client_id']).execute();

    await db.schema
      .createTable('oauth_refresh_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('oauth_refresh_tokens_session').on('oauth_refresh_tokens').column('session_id').execute();

    await db.schema
      .createTable('oauth_browser_sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oauth_browser_sessions_session').on('oauth_browser_sessions').column('session_id').execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['oauth_browser_sessions', 'oauth_refresh_tokens', 'oauth_grants', 'oauth_codes', 'oauth_clients']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
