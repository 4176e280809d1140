import type { Kysely, Migration } from 'kysely';

/**
 * SCIM 2.0 provisioning (issue 15; seed 001 section 3 "Provisioning connection"), portable across
 * SQLite and PostgreSQL (timestamps epoch ms, JSON as text).
 *
 * - `scim_connections`: a tenant's provisioning connection: its source (frontegg, okta, azure-ad,
 *   other) and the SHA-256 of its bearer token (the token is shown once, at creation or rotation).
 * - `scim_resources`: each user membership or group a connection provisioned, with what Gatehouse
 *   keeps of the SCIM resource beyond its own columns (externalId, the SCIM attributes as JSON), a
 *   version for ETags, and `name_key` (userName or displayName, lower-cased) unique per tenant and type,
 *   which is SCIM's uniqueness (409). It dies with its connection, its tenant, and its user or group
 *   (removed by the service, since `resource_id` points at either).
 * - `scim_requests`: the request log, the last 1,000 SCIM requests per connection (method, path,
 *   status, time, a diff of what changed); never a token or a secret.
 */
export const scimProvisioningMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('scim_connections')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('rotated_at', 'bigint')
      .execute();
    await db.schema.createIndex('scim_connections_by_tenant').on('scim_connections').columns(['tenant_id', 'created_at']).execute();

    await db.schema
      .createTable('scim_resources')
      .addColumn('connection_id', 'text', (c) => c.notNull().references('scim_connections.id').onDelete('cascade'))
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('resource_type', 'text', (c) => c.notNull())
      .addColumn('resource_id', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('external_id', 'text')
      .addColumn('attributes', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('scim_resources_pk', ['tenant_id', 'resource_type', 'resource_id'])
      .execute();
    await db.schema.createIndex('scim_resources_name').on('scim_resources').columns(['tenant_id', 'resource_type', 'name_key']).unique().execute();
    await db.schema.createIndex('scim_resources_by_connection').on('scim_resources').columns(['connection_id', 'resource_type']).execute();

    await db.schema
      .createTable('scim_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('connection_id', 'text', (c) => c.notNull().references('scim_connections.id').onDelete('cascade'))
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('resource_type', 'text')
      .addColumn('resource_id', 'text')
      .addColumn('diff', 'text')
      .addColumn('error', 'text')
      .execute();
    await db.schema.createIndex('scim_requests_by_connection').on('scim_requests').columns(['connection_id', 'created_at', 'id']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('scim_requests').execute();
    await db.schema.dropTable('scim_resources').execute();
    await db.schema.dropTable('scim_connections').execute();
  },
};
