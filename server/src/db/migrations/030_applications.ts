import type { Kysely, Migration } from 'kysely';

/**
 * Applications of the vendor (issue 15; seed 001 section 3 "Application: id, accessType, userIds"),
 * portable across SQLite and PostgreSQL (timestamps epoch ms).
 *
 * - `applications`: managed by operators. `access_type` FREE_ACCESS or MANAGED_ACCESS. The logo is
 *   an https address (`logo_url`) or an uploaded image (`logo_id`, a row of `application_logos`).
 *   `client_id` links a hosted-login (OAuth) client, of the database or of OAUTH_CLIENTS_FILE (so no
 *   foreign key); one application per client.
 * - `application_logos`: validated image bytes, served from an immutable public URL.
 * - `application_users`: who is assigned to an application, per tenant (a user of two tenants is
 *   assigned in each apart). An application's, a user's or a tenant's removal takes its rows along.
 */
export function applicationsMigration(binary: 'blob' | 'bytea'): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('applications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('logo_url', 'text')
        .addColumn('logo_id', 'text')
        .addColumn('access_type', 'text', (c) => c.notNull().defaultTo('FREE_ACCESS'))
        .addColumn('client_id', 'text', (c) => c.unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('application_logos')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('bytes', binary, (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('application_logos_by_application').on('application_logos').column('application_id').execute();
      await db.schema
        .createTable('application_users')
        .addColumn('app_id', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
        .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('application_users_pk', ['app_id', 'tenant_id', 'user_id'])
        .execute();
      await db.schema.createIndex('application_users_by_user').on('application_users').columns(['tenant_id', 'user_id']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('application_users').execute();
      await db.schema.dropTable('application_logos').execute();
      await db.schema.dropTable('applications').execute();
    },
  };
}
