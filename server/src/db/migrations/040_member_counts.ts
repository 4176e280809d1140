import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from './index';

/**
 * Per-tenant counts of the users list (issue 17: at 100,000 members every page counted the tenant's
 * memberships, the larger part of a first page's time): `member_counts` holds how many memberships a
 * tenant has (`n`), how many of them have no active second factor (`mfa_unenrolled`, the
 * mfa-unenrolled preset) and how many a breached password (`breached`, the breached-passwords
 * preset). Kept exact by triggers on `user_tenants`, whoever writes it (an invitation, SCIM, the copy
 * triggers of migration 016 when a user or an MFA device changes, a test seeding rows), so a count
 * commits or rolls back with the change it counts:
 *
 * - SQLite: row-level triggers (one writer at a time). The copy of a new membership is filled by an
 *   update after its insert (migration 016), which the update trigger counts.
 * - PostgreSQL: statement-level triggers over the inserted, deleted or updated rows, one upsert per
 *   tenant and statement, and none when no count changes (a sign-in updates `active_at` only).
 *
 * The lists' other filters (search, the inactive preset, which depends on the time) still count the
 * index range.
 */
export function memberCountsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('member_counts')
        .addColumn('tenant_id', 'text', (c) => c.primaryKey())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .addColumn('mfa_unenrolled', 'bigint', (c) => c.notNull())
        .addColumn('breached', 'bigint', (c) => c.notNull())
        .execute();
      for (const statement of dialect === 'postgres' ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS) await sql.raw(statement).execute(db);
      await sql
        .raw(`insert into member_counts (tenant_id, n, mfa_unenrolled, breached) select tenant_id, ${SUMS} from user_tenants group by tenant_id`)
        .execute(db);
    },

    async down(db: Kysely<any>) {
      for (const statement of dialect === 'postgres' ? DROP_POSTGRES_TRIGGERS : DROP_SQLITE_TRIGGERS) await sql.raw(statement).execute(db);
      await db.schema.dropTable('member_counts').execute();
    },
  };
}

/** The three counts over a set of memberships, in column order (n, mfa_unenrolled, breached). */
const SUMS = 'count(*), sum(case when mfa_enrolled = 0 then 1 else 0 end), sum(case when breached = 1 then 1 else 0 end)';

/** Adds `sign` times membership `r`'s counts to its tenant's row (SQLite). */
const addRow = (r: string, sign: '+' | '-') =>
  `insert into member_counts (tenant_id, n, mfa_unenrolled, breached)
     values (${r}.tenant_id, ${sign}1, ${sign}(case when ${r}.mfa_enrolled = 0 then 1 else 0 end), ${sign}(case when ${r}.breached = 1 then 1 else 0 end))
     on conflict (tenant_id) do update set n = n + excluded.n, mfa_unenrolled = mfa_unenrolled + excluded.mfa_unenrolled, breached = breached + excluded.breached`;

const SQLITE_TRIGGERS = [
  `create trigger gh_member_counts_insert after insert on user_tenants begin ${addRow('new', '+')}; end`,
  `create trigger gh_member_counts_delete after delete on user_tenants begin ${addRow('old', '-')}; end`,
  `create trigger gh_member_counts_update after update of tenant_id, mfa_enrolled, breached on user_tenants
     when old.tenant_id is not new.tenant_id or old.mfa_enrolled is not new.mfa_enrolled or old.breached is not new.breached
     begin ${addRow('old', '-')}; ${addRow('new', '+')}; end`,
];

const DROP_SQLITE_TRIGGERS = ['drop trigger if exists gh_member_counts_insert', 'drop trigger if exists gh_member_counts_delete', 'drop trigger if exists gh_member_counts_update'];

/**
 * The change of counts per tenant: the new rows' counts minus the old rows' (either set may be absent).
 * With `order` (migration 045), also `list_version`, raised by one for every tenant whose list order
 * the statement changed: a membership came or went, or one of `order`'s columns changed.
 */
export function postgresDelta(added: string | null, removed: string | null, order?: readonly string[]): string {
  const version = order ? ', o' : '';
  const flag = (value: 'true' | 'false') => (order ? `, ${value}` : '');
  const parts = [
    ...(added ? [`select tenant_id, ${SUMS}${flag(removed ? 'false' : 'true')} from ${added} group by tenant_id`] : []),
    ...(removed ? [`select tenant_id, -count(*), -sum(case when mfa_enrolled = 0 then 1 else 0 end), -sum(case when breached = 1 then 1 else 0 end)${flag(added ? 'false' : 'true')} from ${removed} group by tenant_id`] : []),
  ];
  // An update changes the order where a row's order columns differ between the old and new rows.
  if (order && added && removed) {
    const columns = ['tenant_id', 'user_id', ...order].join(', ');
    parts.push(`select tenant_id, 0, 0, 0, true from (select ${columns} from ${added} except select ${columns} from ${removed}) as c`);
    parts.push(`select tenant_id, 0, 0, 0, true from (select ${columns} from ${removed} except select ${columns} from ${added}) as c`);
  }
  // Tenants in key order, so two statements lock shared counter rows in the same order.
  return `insert into member_counts (tenant_id, n, mfa_unenrolled, breached${order ? ', list_version' : ''})
     select tenant_id, sum(n), sum(m), sum(b)${order ? ', case when bool_or(o) then 1 else 0 end' : ''} from (${parts.join(' union all ')}) as d (tenant_id, n, m, b${version})
     group by tenant_id having sum(n) <> 0 or sum(m) <> 0 or sum(b) <> 0${order ? ' or bool_or(o)' : ''} order by tenant_id
     on conflict (tenant_id) do update set n = member_counts.n + excluded.n, mfa_unenrolled = member_counts.mfa_unenrolled + excluded.mfa_unenrolled,
       breached = member_counts.breached + excluded.breached${order ? ', list_version = member_counts.list_version + excluded.list_version' : ''}`;
}

export const fn = (name: string, body: string) => `create or replace function ${name}() returns trigger language plpgsql as $fn$ begin ${body}; return null; end $fn$`;

const POSTGRES_TRIGGERS = [
  fn('gh_member_counts_insert', postgresDelta('gh_new_members', null)),
  `create trigger gh_member_counts_insert after insert on user_tenants referencing new table as gh_new_members for each statement execute function gh_member_counts_insert()`,
  fn('gh_member_counts_delete', postgresDelta(null, 'gh_old_members')),
  `create trigger gh_member_counts_delete after delete on user_tenants referencing old table as gh_old_members for each statement execute function gh_member_counts_delete()`,
  fn('gh_member_counts_update', postgresDelta('gh_new_members', 'gh_old_members')),
  `create trigger gh_member_counts_update after update on user_tenants referencing old table as gh_old_members new table as gh_new_members
     for each statement execute function gh_member_counts_update()`,
];

const DROP_POSTGRES_TRIGGERS = [
  ...['insert', 'delete', 'update'].map((op) => `drop trigger if exists gh_member_counts_${op} on user_tenants`),
  ...['insert', 'delete', 'update'].map((op) => `drop function if exists gh_member_counts_${op}()`),
];
