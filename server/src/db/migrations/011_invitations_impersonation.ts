import type { Kysely, Migration } from 'kysely';

/**
 * Invitations and impersonation.
 * - `invitations`: one per (tenant, invited user). `token_hash` is the SHA-256 of the emailed link's
 *   token; `code_hash` the SHA-256 of `<id>:<code>` when the code strategy is on (null otherwise).
 *   `attempts` is reserved atomically before each code comparison. `role_ids` is the JSON array of
 *   role ids the inviter granted: acceptance grants exactly these, never more. A resend replaces the
 *   token (and code), so older links die.
 * - `impersonations`: one per impersonation token, and the audit record of who impersonated whom.
 *   `token_hash` is the SHA-256 of the single-use token; `session_id` is the target's session the
 *   token was exchanged for (null until then). No secrets are stored in clear.
 * Only portable types, so one migration serves SQLite and PostgreSQL.
 */
export const invitationsImpersonationMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('invitations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('role_ids', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('sent_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('accepted_at', 'bigint')
      .addUniqueConstraint('invitations_tenant_user_uq', ['tenant_id', 'user_id'])
      .execute();
    await db.schema.createIndex('invitations_token').on('invitations').column('token_hash').unique().execute();
    await db.schema.createIndex('invitations_user').on('invitations').column('user_id').execute();

    await db.schema
      .createTable('impersonations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('impersonator_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('target_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('session_id', 'text')
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .execute();
    await db.schema.createIndex('impersonations_token').on('impersonations').column('token_hash').unique().execute();
    await db.schema.createIndex('impersonations_session').on('impersonations').column('session_id').execute();
    await db.schema.createIndex('impersonations_tenant').on('impersonations').columns(['tenant_id', 'created_at']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('impersonations').execute();
    await db.schema.dropTable('invitations').execute();
  },
};
