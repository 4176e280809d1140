import type { Kysely, Migration } from 'kysely';

/**
 * Tenant security (issue 12), portable across SQLite and PostgreSQL. Timestamps are epoch ms,
 * booleans 0/1.
 *
 * - `tenant_security_policies`: a tenant's own policy of one kind (mfa, lockout, password-history,
 *   password, password-rotation, captcha, user-emails, sessions) as JSON; the vendor's configuration
 *   is the floor it tightens. One row per tenant and kind; `id` is the policy's id on the wire.
 * - `password_history`: argon2id hashes of a user's previous passwords (the password history policy).
 * - `ip_restrictions` and `ip_restriction_configs`: allow and block lists of addresses and CIDR
 *   ranges (canonical text), and whether and how they apply.
 * - `email_domain_restrictions` and `email_domain_restriction_configs`: the same for email domains.
 * - `security_score_history`: one security-center score per tenant and UTC day, kept 90 days.
 */
export const tenantSecurityMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('tenant_security_policies')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('tenant_security_policies_tenant_kind', ['tenant_id', 'kind'])
      .execute();

    await db.schema
      .createTable('password_history')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('password_history_user_idx').on('password_history').columns(['user_id', 'created_at']).execute();

    await db.schema
      .createTable('ip_restrictions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('strategy', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('ip_restrictions_tenant_ip_strategy', ['tenant_id', 'ip', 'strategy'])
      .execute();
    await db.schema
      .createTable('ip_restriction_configs')
      .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
      .addColumn('is_active', 'integer', (c) => c.notNull())
      .addColumn('strategy', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('email_domain_restrictions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('email_domain_restrictions_tenant_domain_type', ['tenant_id', 'domain', 'type'])
      .execute();
    await db.schema
      .createTable('email_domain_restriction_configs')
      .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
      .addColumn('active', 'integer', (c) => c.notNull())
      .addColumn('list_type', 'text', (c) => c.notNull())
      .addColumn('block_public_domains', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('security_score_history')
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('score', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('security_score_history_pk', ['tenant_id', 'day'])
      .execute();
  },

  async down(db: Kysely<any>) {
    for (const table of [
      'security_score_history', 'email_domain_restriction_configs', 'email_domain_restrictions', 'ip_restriction_configs', 'ip_restrictions',
      'password_history', 'tenant_security_policies',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
