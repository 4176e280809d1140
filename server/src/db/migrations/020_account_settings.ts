import type { Kysely, Migration } from 'kysely';

/**
 * Account settings of a tenant (seed 001 section 3 "Account settings: address, timezone, dateFormat,
 * timeFormat, currency, logo. Tenant also has hasCustomLogin and applicationUrl"; issue 5). The
 * company name stays `tenants.name` and the application URL `tenants.application_url`; the rest is
 * one row per tenant, written on the first save (a tenant without a row has the defaults).
 * Logos are stored like profile pictures: validated image bytes, served from an immutable URL.
 */
export function accountSettingsMigration(binary: 'blob' | 'bytea'): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('tenant_logos')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('bytes', binary, (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('tenant_logos_by_tenant').on('tenant_logos').column('tenant_id').execute();
      await db.schema
        .createTable('tenant_account_settings')
        .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
        .addColumn('website', 'text')
        .addColumn('address', 'text')
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('date_format', 'text', (c) => c.notNull())
        .addColumn('time_format', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('logo_id', 'text', (c) => c.references('tenant_logos.id').onDelete('set null'))
        .addColumn('has_custom_login', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('login_title', 'text')
        .addColumn('login_color', 'text')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('tenant_account_settings').execute();
      await db.schema.dropTable('tenant_logos').execute();
    },
  };
}
