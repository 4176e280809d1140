import type { Kysely, Migration } from 'kysely';

/**
 * API tokens (seed 001 section 3 "API token", issue 5): personal tokens (`kind` 'user', acting with
 * their owner's permissions in one tenant) and tenant tokens (`kind` 'tenant', acting with the roles
 * in `api_token_roles`), each either 'ClientCredentials' (exchanged at the token endpoint) or
 * 'AccessToken' (a bearer token itself). Only the SHA-256 of the secret is stored; `client_id` is
 * public. A token dies with its tenant and its owner (or creator); a deleted role leaves its tokens.
 */
export const apiTokensMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('client_id', 'text', (c) => c.notNull().unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('secret_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .execute();
    await db.schema.createIndex('api_tokens_by_tenant').on('api_tokens').columns(['tenant_id', 'kind', 'user_id', 'created_at']).execute();
    await db.schema
      .createTable('api_token_roles')
      .addColumn('token_id', 'text', (c) => c.notNull().references('api_tokens.id').onDelete('cascade'))
      .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('api_token_roles_pk', ['token_id', 'role_id'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('api_token_roles').execute();
    await db.schema.dropTable('api_tokens').execute();
  },
};
