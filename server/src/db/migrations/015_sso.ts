import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Enterprise SSO (SAML 2.0 and OpenID Connect), per tenant.
 * - `sso_configurations`: one identity provider of a tenant. SAML: the IdP's entity id, sign-in URL
 *   and signing certificates (JSON array of base64 DER), parsed from its metadata (by URL or file).
 *   OIDC: issuer, client id and client secret (AES-256-GCM encrypted when a key encryption key is
 *   set). `default_role_ids`: JSON array of role ids every user signing in through it gets.
 * - `sso_domains`: email domains of a configuration. A domain counts only once `validated` (a DNS TXT
 *   record holding `verification` was found); the partial unique index lets one configuration in
 *   the whole database own a validated domain, so two tenants can never both claim it.
 * - `sso_group_mappings`: IdP group name -> JSON array of role ids of the configuration's tenant.
 * - `sso_requests`: one sign-in sent to an IdP: the SAML AuthnRequest ID (the row id) or the OIDC
 *   state (stored as SHA-256), nonce and PKCE verifier, the SHA-256 of the browser-binding cookie and
 *   where the browser comes back. `used_at` makes it single use; after a SAML response passed the
 *   ACS, `result` holds the proven identity until the login box redeems `result_code_hash`.
 * - `sso_assertions`: IDs of SAML assertions already accepted, until they expire: the replay cache,
 *   in the database so every server process refuses a replay (the primary key decides atomically).
 * - `sso_identities`: which user an IdP subject is, and the roles the last sign-in granted through
 *   defaults and group mappings (so a group the IdP drops takes its roles away again).
 * Only portable types, so one migration serves SQLite and PostgreSQL.
 */
export const ssoMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('sso_configurations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('sign_request', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('idp_entity_id', 'text')
      .addColumn('idp_sso_url', 'text')
      .addColumn('idp_certificates', 'text')
      .addColumn('idp_metadata_url', 'text')
      .addColumn('oidc_issuer', 'text')
      .addColumn('oidc_client_id', 'text')
      .addColumn('oidc_client_secret', 'text')
      .addColumn('oidc_scopes', 'text')
      .addColumn('default_role_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sso_configurations_tenant').on('sso_configurations').column('tenant_id').execute();

    await db.schema
      .createTable('sso_domains')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('config_id', 'text', (c) => c.notNull().references('sso_configurations.id').onDelete('cascade'))
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('validated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('verification', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('validated_at', 'bigint')
      .addUniqueConstraint('sso_domains_config_domain_uq', ['config_id', 'domain'])
      .execute();
    await db.schema.createIndex('sso_domains_domain').on('sso_domains').column('domain').execute();
    await db.schema.createIndex('sso_domains_validated_uq').on('sso_domains').column('domain').unique().where(sql.ref('validated'), '=', 1).execute();

    await db.schema
      .createTable('sso_group_mappings')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('config_id', 'text', (c) => c.notNull().references('sso_configurations.id').onDelete('cascade'))
      .addColumn('group_name', 'text', (c) => c.notNull())
      .addColumn('role_ids', 'text', (c) => c.notNull())
      .addUniqueConstraint('sso_group_mappings_config_group_uq', ['config_id', 'group_name'])
      .execute();

    await db.schema
      .createTable('sso_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('config_id', 'text', (c) => c.notNull().references('sso_configurations.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('state_hash', 'text')
      .addColumn('nonce', 'text')
      .addColumn('code_verifier', 'text')
      .addColumn('binding_hash', 'text', (c) => c.notNull())
      .addColumn('redirect_uri', 'text', (c) => c.notNull())
      .addColumn('result', 'text')
      .addColumn('result_code_hash', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('completed_at', 'bigint')
      .execute();
    await db.schema.createIndex('sso_requests_state').on('sso_requests').column('state_hash').execute();
    await db.schema.createIndex('sso_requests_result_code').on('sso_requests').column('result_code_hash').execute();
    await db.schema.createIndex('sso_requests_expires').on('sso_requests').column('expires_at').execute();

    await db.schema
      .createTable('sso_assertions')
      .addColumn('config_id', 'text', (c) => c.notNull().references('sso_configurations.id').onDelete('cascade'))
      .addColumn('assertion_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('sso_assertions_pk', ['config_id', 'assertion_id'])
      .execute();
    await db.schema.createIndex('sso_assertions_expires').on('sso_assertions').column('expires_at').execute();

    await db.schema
      .createTable('sso_identities')
      .addColumn('config_id', 'text', (c) => c.notNull().references('sso_configurations.id').onDelete('cascade'))
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('granted_role_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_login_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('sso_identities_pk', ['config_id', 'subject'])
      .execute();
    await db.schema.createIndex('sso_identities_user').on('sso_identities').column('user_id').execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['sso_identities', 'sso_assertions', 'sso_requests', 'sso_group_mappings', 'sso_domains', 'sso_configurations']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
