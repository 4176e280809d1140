import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely';

/** The walking skeleton's tables. `blobType` differs per dialect; every other type is portable. */
export function initialMigration(blobType: 'blob' | 'bytea'): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('tenants')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('is_reseller', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('application_url', 'text')
        .addColumn('metadata', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('username', 'text', (c) => c.unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('super_user', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('phone_number', 'text')
        .addColumn('address', 'text')
        .addColumn('job_title', 'text')
        .addColumn('profile_picture_id', 'text')
        .addColumn('metadata', 'text')
        .addColumn('last_tenant_id', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_login', 'bigint')
        .execute();

      await db.schema
        .createTable('user_tenants')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('user_tenants_pk', ['user_id', 'tenant_id'])
        .execute();
      await db.schema.createIndex('user_tenants_tenant_idx').on('user_tenants').column('tenant_id').execute();

      await db.schema
        .createTable('permissions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('category_id', 'text')
        .execute();

      await db.schema
        .createTable('roles')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('roles_tenant_key_uq', ['tenant_id', 'key'])
        .execute();

      await db.schema
        .createTable('role_permissions')
        .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
        .addColumn('permission_id', 'text', (c) => c.notNull().references('permissions.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('role_permissions_pk', ['role_id', 'permission_id'])
        .execute();

      await db.schema
        .createTable('user_roles')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'tenant_id', 'role_id'])
        .execute();
      await db.schema.createIndex('user_roles_role_idx').on('user_roles').column('role_id').execute();

      await db.schema
        .createTable('signing_keys')
        .addColumn('kid', 'text', (c) => c.primaryKey())
        .addColumn('alg', 'text', (c) => c.notNull())
        .addColumn('public_jwk', 'text', (c) => c.notNull())
        .addColumn('private_jwk', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('not_after', 'bigint')
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('tenant_id', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text')
        .addColumn('ip', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('auth_time', 'bigint', (c) => c.notNull())
        .addColumn('amr', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('refresh_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('refresh_tokens_session_idx').on('refresh_tokens').column('session_id').execute();

      await db.schema
        .createTable('one_time_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('one_time_tokens_user_idx').on('one_time_tokens').columns(['user_id', 'purpose']).execute();

      await db.schema
        .createTable('outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text_body', 'text', (c) => c.notNull())
        .addColumn('html_body', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('outbox_created_idx').on('outbox').column('created_at').execute();

      await db.schema
        .createTable('profile_pictures')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('bytes', sql.raw(blobType) as never, (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('profile_pictures_user_idx').on('profile_pictures').column('user_id').execute();

      await db.schema
        .createTable('metadata')
        .addColumn('entity_name', 'text', (c) => c.primaryKey())
        .addColumn('configuration', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
