import type { Kysely, Migration } from 'kysely';

/**
 * Sessions policy (issue 12): the idle timeout, forced re-login and concurrent-session limit are
 * enforced over a tenant's live sessions (saving a stricter policy signs out, at once, the sessions
 * that break it; a sign-in counts the user's sessions in its tenant), so sessions get an index by
 * tenant. Portable across SQLite and PostgreSQL.
 */
export const sessionPolicyMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex('sessions_tenant_user_idx').on('sessions').columns(['tenant_id', 'user_id']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('sessions_tenant_user_idx').execute();
  },
};
