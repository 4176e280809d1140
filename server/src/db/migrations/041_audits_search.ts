import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from './index';

/**
 * The audits list at 1,000,000 records of a tenant (issue 17), both dialects:
 *
 * - `audit_hours`: how many records each (tenant, action, severity, hour) has, kept exact by triggers
 *   on `audits` as `audit_counts` is (migration 023: row-level on SQLite, statement-level over the
 *   inserted or deleted rows on PostgreSQL, so a bulk insert updates each bucket once). The list's
 *   total for a filter of time range, action and severity is a sum of whole hours plus a count of
 *   the partial hours at the range's two ends in the index (it counted up to every record of the
 *   tenant: 131 ms on SQLite, 252 ms on PostgreSQL for one action of eight).
 * - `audits_by_email` on lower(email) and `audits_by_ip`, in time order within each: the email and IP
 *   filters read an index range (they scanned the tenant's records).
 * - The description filter ("contains", any case; a scan took 1.3 s on SQLite, 3.3 s on PostgreSQL):
 *   - SQLite: `audits_fts`, an FTS5 index with the trigram tokenizer over `audits.description` (external
 *   content: it stores the trigrams, not the text), kept in step by triggers on `audits`, whoever
 *   writes it. A needle of 3 or more characters is a phrase of trigrams: the index returns the rowids
 *   of candidate records of every tenant; the list keeps the tenant's and applies the exact filter
 *   to them (queries/audits.ts), so the index only ever narrows the search. Its rowids are the
 *   records' rowids: after a `VACUUM` (which may renumber the rowids of a table without an INTEGER
 *   PRIMARY KEY) run `insert into audits_fts(audits_fts) values ('rebuild')` (docs/audits.md).
 *   - PostgreSQL: a GIN trigram index (pg_trgm) on `lower(description)`, the very expression the filter
 *   matches with LIKE. pg_trgm ships with PostgreSQL (Debian: postgresql-contrib, in the server
 *   package); creating it needs the CREATE privilege on the database (it is a trusted extension
 *   since PostgreSQL 13) or a superuser. When it cannot be created the migration goes on without
 *   the index, and the filter scans as before.
 */
export function auditsSearchMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('audit_hours')
        .addColumn('tenant_id', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('severity', 'text', (c) => c.notNull())
        .addColumn('hour', 'bigint', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('audit_hours_pk', ['tenant_id', 'action', 'severity', 'hour'])
        .execute();
      await db.schema.createIndex('audit_hours_by_hour').on('audit_hours').columns(['tenant_id', 'hour']).execute();
      await db.schema.createIndex('audit_hours_by_severity').on('audit_hours').columns(['tenant_id', 'severity', 'hour']).execute();
      for (const statement of dialect === 'postgres' ? POSTGRES_HOURS : SQLITE_HOURS) await sql.raw(statement).execute(db);
      await sql.raw(`insert into audit_hours (tenant_id, action, severity, hour, n) select tenant_id, action, severity, ${HOUR_OF('created_at')}, count(*) from audits group by 1, 2, 3, 4`).execute(db);

      await sql`create index audits_by_email on audits (tenant_id, lower(email), created_at, id)`.execute(db);
      await db.schema.createIndex('audits_by_ip').on('audits').columns(['tenant_id', 'ip', 'created_at', 'id']).execute();

      if (dialect === 'sqlite') {
        for (const statement of SQLITE_UP) await sql.raw(statement).execute(db);
        return;
      }
      // In a savepoint: a refused CREATE EXTENSION must not abort the migration's transaction.
      await sql`savepoint gh_trgm`.execute(db);
      try {
        // Into public when it is new: one copy for the database, outside the schemas a deployment (or a test) drops.
        await sql`create extension if not exists pg_trgm schema public`.execute(db);
        await sql`release savepoint gh_trgm`.execute(db);
      } catch {
        await sql`rollback to savepoint gh_trgm`.execute(db);
      }
      const schema = await trigramSchema(db);
      if (!schema) return;
      await sql`create index audits_description_trgm on audits using gin (lower(description) ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
    },

    async down(db: Kysely<any>) {
      for (const statement of dialect === 'postgres' ? DROP_POSTGRES_HOURS : DROP_SQLITE_HOURS) await sql.raw(statement).execute(db);
      await db.schema.dropTable('audit_hours').execute();
      await db.schema.dropIndex('audits_by_email').execute();
      await db.schema.dropIndex('audits_by_ip').execute();
      if (dialect === 'sqlite') {
        for (const statement of SQLITE_DOWN) await sql.raw(statement).execute(db);
        return;
      }
      // The extension stays: other schemas of the database may use it.
      await sql`drop index if exists audits_description_trgm`.execute(db);
    },
  };
}

/** The schema pg_trgm is installed in, or null when it is not installed. */
async function trigramSchema(db: Kysely<any>): Promise<string | null> {
  const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  return rows[0]?.schema ?? null;
}

const SQLITE_UP = [
  `create virtual table audits_fts using fts5(description, content = 'audits', content_rowid = 'rowid', tokenize = 'trigram')`,
  `create trigger gh_audits_fts_insert after insert on audits begin
     insert into audits_fts (rowid, description) values (new.rowid, new.description); end`,
  `create trigger gh_audits_fts_delete after delete on audits begin
     insert into audits_fts (audits_fts, rowid, description) values ('delete', old.rowid, old.description); end`,
  `create trigger gh_audits_fts_update after update of description on audits begin
     insert into audits_fts (audits_fts, rowid, description) values ('delete', old.rowid, old.description);
     insert into audits_fts (rowid, description) values (new.rowid, new.description); end`,
  // The records written before this migration.
  `insert into audits_fts (audits_fts) values ('rebuild')`,
];

const SQLITE_DOWN = ['drop trigger if exists gh_audits_fts_insert', 'drop trigger if exists gh_audits_fts_delete', 'drop trigger if exists gh_audits_fts_update', 'drop table if exists audits_fts'];

/** Milliseconds in an hour of `audit_hours`. */
export const AUDIT_HOUR_MS = 3_600_000;
/** The hour a time falls in (integer division on both dialects: the columns are integers). */
const HOUR_OF = (column: string) => `(${column} / ${AUDIT_HOUR_MS})`;

const SQLITE_HOURS = [
  `create trigger gh_audits_hours_insert after insert on audits begin
     insert into audit_hours (tenant_id, action, severity, hour, n) values (new.tenant_id, new.action, new.severity, ${HOUR_OF('new.created_at')}, 1)
       on conflict (tenant_id, action, severity, hour) do update set n = n + 1; end`,
  `create trigger gh_audits_hours_delete after delete on audits begin
     update audit_hours set n = n - 1 where tenant_id = old.tenant_id and action = old.action and severity = old.severity and hour = ${HOUR_OF('old.created_at')}; end`,
];

const DROP_SQLITE_HOURS = ['drop trigger if exists gh_audits_hours_insert', 'drop trigger if exists gh_audits_hours_delete'];

// Buckets in key order, so two bulk inserts lock shared buckets in the same order (no deadlock).
const POSTGRES_HOURS = [
  `create or replace function gh_audits_hours_insert() returns trigger language plpgsql as $fn$ begin
     insert into audit_hours (tenant_id, action, severity, hour, n)
       select tenant_id, action, severity, ${HOUR_OF('created_at')}, count(*) from gh_inserted_audit_hours group by 1, 2, 3, 4 order by 1, 2, 3, 4
       on conflict (tenant_id, action, severity, hour) do update set n = audit_hours.n + excluded.n;
     return null;
   end $fn$`,
  `create trigger gh_audits_hours_insert after insert on audits referencing new table as gh_inserted_audit_hours
     for each statement execute function gh_audits_hours_insert()`,
  `create or replace function gh_audits_hours_delete() returns trigger language plpgsql as $fn$ begin
     update audit_hours set n = audit_hours.n - d.n
       from (select tenant_id, action, severity, ${HOUR_OF('created_at')} as hour, count(*) as n from gh_deleted_audit_hours group by 1, 2, 3, 4) d
       where audit_hours.tenant_id = d.tenant_id and audit_hours.action = d.action and audit_hours.severity = d.severity and audit_hours.hour = d.hour;
     return null;
   end $fn$`,
  `create trigger gh_audits_hours_delete after delete on audits referencing old table as gh_deleted_audit_hours
     for each statement execute function gh_audits_hours_delete()`,
];

const DROP_POSTGRES_HOURS = [
  'drop trigger if exists gh_audits_hours_insert on audits',
  'drop trigger if exists gh_audits_hours_delete on audits',
  'drop function if exists gh_audits_hours_insert()',
  'drop function if exists gh_audits_hours_delete()',
];
