import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from './index';

/**
 * Per-tenant count of audit records (issue 5: the unfiltered audits list and `stats.total` counted a
 * tenant's rows on every call, ~400 ms at 1,000,000 rows). `audit_counts.n` is kept exact by
 * triggers on `audits`, so it commits (or rolls back) with the very insert it counts, whoever makes
 * it (`recordAudit`, a bulk import, a test seeding rows).
 *
 * - PostgreSQL: statement-level triggers over transition tables add one `count(*)` per tenant and
 *   statement, so a bulk insert of many rows updates the counter row once (a row-level trigger
 *   would update the same row once per inserted row, a long chain of row versions in one
 *   transaction). Concurrent writers of one tenant queue on its counter row until they commit;
 *   admin changes are short transactions, so that queue stays short.
 * - SQLite: row-level triggers (one writer at a time; an in-place update).
 * - Existing records are counted once, after the triggers exist; on PostgreSQL creating the trigger
 *   locks `audits` against writers until the migration commits, so no insert is missed or counted twice.
 *
 * Audit records are never updated; a change of `tenant_id` is not counted.
 */
export function auditCountsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('audit_counts')
        .addColumn('tenant_id', 'text', (c) => c.primaryKey())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .execute();
      for (const statement of dialect === 'postgres' ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS) await sql.raw(statement).execute(db);
      await sql`insert into audit_counts (tenant_id, n) select tenant_id, count(*) from audits group by tenant_id`.execute(db);
    },

    async down(db: Kysely<any>) {
      for (const statement of dialect === 'postgres' ? DROP_POSTGRES_TRIGGERS : DROP_SQLITE_TRIGGERS) await sql.raw(statement).execute(db);
      await db.schema.dropTable('audit_counts').execute();
    },
  };
}

const SQLITE_TRIGGERS = [
  `create trigger gh_audits_count_insert after insert on audits begin
     insert into audit_counts (tenant_id, n) values (new.tenant_id, 1) on conflict (tenant_id) do update set n = n + 1; end`,
  `create trigger gh_audits_count_delete after delete on audits begin
     update audit_counts set n = n - 1 where tenant_id = old.tenant_id; end`,
];

const DROP_SQLITE_TRIGGERS = ['drop trigger if exists gh_audits_count_insert', 'drop trigger if exists gh_audits_count_delete'];

const POSTGRES_TRIGGERS = [
  `create or replace function gh_audits_count_insert() returns trigger language plpgsql as $fn$ begin
     insert into audit_counts (tenant_id, n) select tenant_id, count(*) from gh_inserted_audits group by tenant_id
       on conflict (tenant_id) do update set n = audit_counts.n + excluded.n;
     return null;
   end $fn$`,
  `create trigger gh_audits_count_insert after insert on audits referencing new table as gh_inserted_audits
     for each statement execute function gh_audits_count_insert()`,
  `create or replace function gh_audits_count_delete() returns trigger language plpgsql as $fn$ begin
     update audit_counts set n = audit_counts.n - d.n
       from (select tenant_id, count(*) as n from gh_deleted_audits group by tenant_id) d
       where audit_counts.tenant_id = d.tenant_id;
     return null;
   end $fn$`,
  `create trigger gh_audits_count_delete after delete on audits referencing old table as gh_deleted_audits
     for each statement execute function gh_audits_count_delete()`,
];

const DROP_POSTGRES_TRIGGERS = [
  'drop trigger if exists gh_audits_count_insert on audits',
  'drop trigger if exists gh_audits_count_delete on audits',
  'drop function if exists gh_audits_count_insert()',
  'drop function if exists gh_audits_count_delete()',
];
