import type { Kysely, Migration } from 'kysely';

/**
 * MFA (seed 000 sections 3 and 4.8): enrolled factors, hashed recovery codes, short-lived mfaTokens
 * that stand between a password and a session, emailed codes, remembered devices, and the
 * per-tenant MFA policy. Secrets are stored as SHA-256 hashes, except the TOTP seed, which the
 * server must read back (encrypted with GATEHOUSE_KEY_ENCRYPTION_KEY when set). Portable types only.
 */
export const mfaMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('mfa_devices')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('secret', 'text')
      .addColumn('email', 'text')
      .addColumn('last_used_step', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('verified_at', 'bigint')
      .execute();
    await db.schema.createIndex('mfa_devices_user').on('mfa_devices').column('user_id').execute();

    await db.schema
      .createTable('mfa_recovery_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('mfa_recovery_codes_user').on('mfa_recovery_codes').column('user_id').execute();

    await db.schema
      .createTable('mfa_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('mfa_tokens_expires').on('mfa_tokens').column('expires_at').execute();

    await db.schema
      .createTable('mfa_email_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('mfa_token_hash', 'text')
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

    await db.schema
      .createTable('mfa_remembered_devices')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('mfa_policies')
      .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
      .addColumn('enforce', 'text', (c) => c.notNull())
      .addColumn('allow_remember_device', 'integer', (c) => c.notNull())
      .addColumn('remember_device_days', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['mfa_policies', 'mfa_remembered_devices', 'mfa_email_codes', 'mfa_tokens', 'mfa_recovery_codes', 'mfa_devices']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
