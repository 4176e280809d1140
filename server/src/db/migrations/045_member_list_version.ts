import { sql, type Kysely, type Migration } from 'kysely';
import { fn, postgresDelta } from './040_member_counts';
import type { DialectName } from './index';

/**
 * `member_counts.list_version` (issue 17): a number that changes whenever the order of a tenant's
 * users list may have changed, in any of its sorts: a membership came or went, or one of the columns
 * the sorts order by changed. The page marks of the users list (services/admin/member-marks.ts)
 * hold the version they were read at and are used only while it is still the tenant's, so a change
 * made by any process, or by SQL outside Gatehouse, retires them before the next page is read.
 *
 * Kept by the triggers that keep the counts, in the same statement:
 * - PostgreSQL: the statement-level functions of migration 040 now also raise the version of every
 *   tenant whose rows the statement inserted, deleted, or updated in an order column (compared as
 *   sets of old and new rows). One upsert per statement, tenants in key order, as before. A sign-in,
 *   which sets `active_at` alone, writes nothing.
 * - SQLite: row-level triggers beside migration 040's; an update fires only when an order column is
 *   set and changed.
 */
export const ORDER_COLUMNS = ['sort_name', 'email', 'user_created_at', 'verified', 'locked', 'provider'] as const;

const bump = (tenant: string) =>
  `insert into member_counts (tenant_id, n, mfa_unenrolled, breached, list_version) values (${tenant}, 0, 0, 0, 1)
     on conflict (tenant_id) do update set list_version = list_version + 1`;

const SQLITE_TRIGGERS = [
  `create trigger gh_member_list_insert after insert on user_tenants begin ${bump('new.tenant_id')}; end`,
  `create trigger gh_member_list_delete after delete on user_tenants begin ${bump('old.tenant_id')}; end`,
  `create trigger gh_member_list_update after update of tenant_id, user_id, ${ORDER_COLUMNS.join(', ')} on user_tenants
     when ${['tenant_id', 'user_id', ...ORDER_COLUMNS].map((c) => `old.${c} is not new.${c}`).join(' or ')}
     begin ${bump('old.tenant_id')}; update member_counts set list_version = list_version + 1 where tenant_id = new.tenant_id and new.tenant_id is not old.tenant_id; end`,
];

const postgresFunctions = (order?: readonly string[]) => [
  fn('gh_member_counts_insert', postgresDelta('gh_new_members', null, order)),
  fn('gh_member_counts_delete', postgresDelta(null, 'gh_old_members', order)),
  fn('gh_member_counts_update', postgresDelta('gh_new_members', 'gh_old_members', order)),
];

export function memberListVersionMigration(dialect: DialectName): Migration {
  const run = async (db: Kysely<any>, statements: string[]) => {
    for (const statement of statements) await sql.raw(statement).execute(db);
  };
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('member_counts').addColumn('list_version', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await run(db, dialect === 'postgres' ? postgresFunctions(ORDER_COLUMNS) : SQLITE_TRIGGERS);
    },

    async down(db: Kysely<any>) {
      await run(db, dialect === 'postgres' ? postgresFunctions() : ['drop trigger if exists gh_member_list_insert', 'drop trigger if exists gh_member_list_delete', 'drop trigger if exists gh_member_list_update']);
      await db.schema.alterTable('member_counts').dropColumn('list_version').execute();
    },
  };
}
